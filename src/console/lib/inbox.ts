// "Waiting on you": what the board must decide, shared by the navigation's count and the inbox
// page. Pending approvals, open budget incidents (with the override approval each hard stop opens,
// shown with its incident rather than twice) and pending join requests.
import { computed, signal } from "@preact/signals";
import { api, ApiError, call, type Schemas } from "./api";
import { type Approval, groupIncidents, type IncidentGroup, standaloneApprovals } from "./inbox-items";
import { subscribe } from "./live";

export type { Approval, BudgetIncident, IncidentGroup } from "./inbox-items";
export type JoinRequest = NonNullable<Schemas["JoinRequest"]>;

export interface Inbox {
  companyId: string;
  approvals: Approval[];
  incidents: IncidentGroup[];
  joinRequests: JoinRequest[];
  /** Join requests are hidden from callers without joins:approve. */
  joinRequestsHidden: boolean;
}

export const inbox = signal<Inbox | undefined>(undefined);
export const inboxError = signal<string | null>(null);
export const inboxCount = computed(() => {
  const current = inbox.value;
  return current ? current.approvals.length + current.incidents.length + current.joinRequests.length : null;
});

export async function loadInbox(companyId: string) {
  try {
    const path = { companyId };
    const [approvals, overview, joins] = await Promise.all([
      call(api.GET("/api/companies/{companyId}/approvals", { params: { path, query: { status: "pending" } } })),
      call(api.GET("/api/companies/{companyId}/budgets/overview", { params: { path } })),
      call(api.GET("/api/companies/{companyId}/join-requests", { params: { path, query: { status: "pending_approval" } } })).catch((err) => {
        if (err instanceof ApiError && err.status === 403) return null;
        throw err;
      }),
    ]);
    const incidents = overview.activeIncidents;
    inbox.value = {
      companyId,
      approvals: standaloneApprovals(approvals, incidents),
      incidents: groupIncidents(incidents),
      joinRequests: (joins ?? []).filter((j): j is JoinRequest => j !== null),
      joinRequestsHidden: joins === null,
    };
    inboxError.value = null;
  } catch (err) {
    inboxError.value = (err as Error).message;
  }
}

/** Keeps the inbox of this company current while the console shows it; returns the stop. */
export function followInbox(companyId: string): () => void {
  if (inbox.value?.companyId !== companyId) inbox.value = undefined;
  void loadInbox(companyId);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unsubscribe = subscribe(["approval.*", "budget.*", "agent.created"], () => {
    clearTimeout(timer);
    timer = setTimeout(() => void loadInbox(companyId), 120);
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}

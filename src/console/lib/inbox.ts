// "Waiting on you": what the board must decide, shared by the navigation's count and the inbox
// page. Pending approvals, open budget incidents (with the override approval each hard stop opens,
// shown with its incident rather than twice) and pending join requests.
import { computed, signal } from "@preact/signals";
import { api, ApiError, call, type Schemas } from "./api";
import { subscribe } from "./live";

export type Approval = Schemas["Approval"];
export type BudgetIncident = Schemas["BudgetIncident"];
export type JoinRequest = NonNullable<Schemas["JoinRequest"]>;

/**
 * The open incidents of one budget policy: crossing 100 % also crossed the warning threshold, so a
 * hard stop usually comes with a soft incident; the board decides them together.
 */
export interface IncidentGroup {
  policyId: string;
  /** The hard stop if there is one, else the latest warning. */
  primary: BudgetIncident;
  incidents: BudgetIncident[];
}

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

export function groupIncidents(incidents: BudgetIncident[]): IncidentGroup[] {
  const groups = new Map<string, BudgetIncident[]>();
  for (const incident of incidents) groups.set(incident.policyId, [...(groups.get(incident.policyId) ?? []), incident]);
  return [...groups].map(([policyId, list]) => {
    const byWeight = [...list].sort((a, b) => (a.kind === b.kind ? b.createdAt.localeCompare(a.createdAt) : a.kind === "hard" ? -1 : 1));
    return { policyId, primary: byWeight[0], incidents: list };
  });
}

/** The approvals to list on their own: an incident's override approval is decided with it. */
export function standaloneApprovals(approvals: Approval[], incidents: BudgetIncident[]): Approval[] {
  const withIncident = new Set(incidents.map((i) => i.approvalId).filter(Boolean));
  return approvals.filter((a) => !withIncident.has(a.id));
}

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

// "Waiting on you": what the board must decide or do, shared by the navigation's count and the inbox
// page. Pending approvals, open budget incidents (with the override approval each hard stop opens,
// shown with its incident rather than twice), pending join requests, and the open issues assigned
// to the signed-in member (`assigneeUserId=me`; reloaded alone on issue events).
import { computed, signal } from "@preact/signals";
import { api, ApiError, call, type Schemas } from "./api";
import { ISSUE_STATUSES } from "./enums";
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

export type AssignedIssue = Schemas["Issue"];

export const inbox = signal<Inbox | undefined>(undefined);
export const inboxError = signal<string | null>(null);
/** Open issues assigned to the signed-in member, in this company. */
export const assignedToYou = signal<{ companyId: string; issues: AssignedIssue[] } | undefined>(undefined);
export const assignedError = signal<string | null>(null);
export const inboxCount = computed(() => {
  const current = inbox.value;
  const assigned = assignedToYou.value?.companyId === current?.companyId ? (assignedToYou.value?.issues.length ?? 0) : 0;
  return current ? current.approvals.length + current.incidents.length + current.joinRequests.length + assigned : null;
});

/** Every status but done and cancelled. */
const OPEN_STATUSES = ISSUE_STATUSES.filter((s) => s !== "done" && s !== "cancelled").join(",");

export async function loadAssigned(companyId: string) {
  try {
    const issues = await call(
      api.GET("/api/companies/{companyId}/issues", { params: { path: { companyId }, query: { assigneeUserId: "me", status: OPEN_STATUSES, limit: "500" } } }),
    );
    // The latest change first, as the issues list shows them.
    assignedToYou.value = { companyId, issues: [...issues].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)) };
    assignedError.value = null;
  } catch (err) {
    assignedError.value = (err as Error).message;
  }
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
  if (assignedToYou.value?.companyId !== companyId) assignedToYou.value = undefined;
  void loadInbox(companyId);
  void loadAssigned(companyId);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let issueTimer: ReturnType<typeof setTimeout> | undefined;
  const unsubscribe = subscribe(["approval.*", "budget.*", "agent.created"], () => {
    clearTimeout(timer);
    timer = setTimeout(() => void loadInbox(companyId), 120);
  });
  const unsubscribeIssues = subscribe(["issue.*"], () => {
    clearTimeout(issueTimer);
    issueTimer = setTimeout(() => void loadAssigned(companyId), 120);
  });
  return () => {
    clearTimeout(timer);
    clearTimeout(issueTimer);
    unsubscribe();
    unsubscribeIssues();
  };
}

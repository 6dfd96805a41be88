// "Waiting on you": what the board must decide or do, shared by the navigation's count and the inbox
// page. Pending approvals, open budget incidents (with the override approval each hard stop opens,
// shown with its incident rather than twice), pending join requests, the open issues assigned to
// the signed-in member (`assigneeUserId=me`), the open questions agents asked of them or of the
// board, and what is blocked on them (lib/inbox-items.ts). Issues and questions reload alone on
// issue and question events.
import { computed, signal } from "@preact/signals";
import { api, ApiError, call, type Schemas } from "./api";
import { ISSUE_STATUSES } from "./enums";
import {
  type Approval,
  askedOf,
  blockedOnYou as blockedIssues,
  type CompanyQuestion,
  groupIncidents,
  type IncidentGroup,
  standaloneApprovals,
  type StoppedDelivery,
  stoppedDeliveries,
  waitingCount,
} from "./inbox-items";
import { subscribe } from "./live";
import { session } from "./session";

export type { Approval, BlockedIssue, BudgetIncident, CompanyQuestion, IncidentGroup, StoppedDelivery } from "./inbox-items";
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
/** Open questions asked of the signed-in member or of the board, oldest first. */
export const questionsForYou = signal<{ companyId: string; questions: CompanyQuestion[] } | undefined>(undefined);
export const questionsError = signal<string | null>(null);
/** Webhooks and notification channels the service disabled (a day of failures). */
export const stoppedForYou = signal<{ companyId: string; stopped: StoppedDelivery[] } | undefined>(undefined);
export const stoppedError = signal<string | null>(null);
/** "Blocked on you": blocked issues assigned to you and issues with an open question for you (undefined until both are loaded). */
export const blockedOnYou = computed(() => {
  const assigned = assignedToYou.value;
  const questions = questionsForYou.value;
  if (!assigned || !questions || assigned.companyId !== questions.companyId) return undefined;
  return { companyId: assigned.companyId, issues: blockedIssues(assigned.issues, questions.questions) };
});
export const inboxCount = computed(() => {
  const current = inbox.value;
  if (!current) return null;
  const ofCompany = <T extends { companyId: string }>(part: T | undefined) => (part?.companyId === current.companyId ? part : undefined);
  return waitingCount({
    decisions: current.approvals.length + current.incidents.length + current.joinRequests.length + (ofCompany(stoppedForYou.value)?.stopped.length ?? 0),
    questions: ofCompany(questionsForYou.value)?.questions.length ?? 0,
    issueIds: [...(ofCompany(assignedToYou.value)?.issues ?? []), ...(ofCompany(blockedOnYou.value)?.issues ?? [])].map((i) => i.id),
  });
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

export async function loadQuestions(companyId: string) {
  try {
    const open = await call(api.GET("/api/companies/{companyId}/questions", { params: { path: { companyId }, query: { status: "open", limit: 200 } } }));
    const userId = session.value?.user.id;
    questionsForYou.value = { companyId, questions: open.filter((q) => askedOf(q, userId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt)) };
    questionsError.value = null;
  } catch (err) {
    questionsError.value = (err as Error).message;
  }
}

/** Lists a board member may not read (403) count as empty. */
const unlessForbidden = <T>(list: Promise<T[]>) =>
  list.catch((err) => {
    if (err instanceof ApiError && err.status === 403) return [] as T[];
    throw err;
  });

export async function loadStopped(companyId: string) {
  try {
    const path = { companyId };
    const [webhooks, channels] = await Promise.all([
      unlessForbidden(call(api.GET("/api/companies/{companyId}/webhooks", { params: { path } }))),
      unlessForbidden(call(api.GET("/api/companies/{companyId}/notification-channels", { params: { path } }))),
    ]);
    stoppedForYou.value = { companyId, stopped: stoppedDeliveries(webhooks, channels) };
    stoppedError.value = null;
  } catch (err) {
    stoppedError.value = (err as Error).message;
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
  if (questionsForYou.value?.companyId !== companyId) questionsForYou.value = undefined;
  if (stoppedForYou.value?.companyId !== companyId) stoppedForYou.value = undefined;
  void loadInbox(companyId);
  void loadStopped(companyId);
  void loadAssigned(companyId);
  void loadQuestions(companyId);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let issueTimer: ReturnType<typeof setTimeout> | undefined;
  let questionTimer: ReturnType<typeof setTimeout> | undefined;
  let stoppedTimer: ReturnType<typeof setTimeout> | undefined;
  const unsubscribe = subscribe(["approval.*", "budget.*", "agent.created"], () => {
    clearTimeout(timer);
    timer = setTimeout(() => void loadInbox(companyId), 120);
  });
  const unsubscribeIssues = subscribe(["issue.*"], () => {
    clearTimeout(issueTimer);
    issueTimer = setTimeout(() => void loadAssigned(companyId), 120);
  });
  // A question's issue changes status with it (blocked, and back): issue events reload them too.
  const unsubscribeQuestions = subscribe(["question.*", "issue.*"], () => {
    clearTimeout(questionTimer);
    questionTimer = setTimeout(() => void loadQuestions(companyId), 120);
  });
  const unsubscribeStopped = subscribe(["webhook.disabled", "notification_channel.disabled"], () => {
    clearTimeout(stoppedTimer);
    stoppedTimer = setTimeout(() => void loadStopped(companyId), 120);
  });
  return () => {
    clearTimeout(timer);
    clearTimeout(stoppedTimer);
    unsubscribeStopped();
    clearTimeout(issueTimer);
    clearTimeout(questionTimer);
    unsubscribe();
    unsubscribeIssues();
    unsubscribeQuestions();
  };
}

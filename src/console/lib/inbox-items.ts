// How the inbox arranges what waits on the board (pure; lib/inbox.ts loads it).
import type { components } from "../../client";

export type Approval = components["schemas"]["Approval"];
export type BudgetIncident = components["schemas"]["BudgetIncident"];

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

export type CompanyQuestion = components["schemas"]["CompanyQuestion"];
type Issue = components["schemas"]["Issue"];

/** Whether a question is for this member: asked of them, or of the board (no one in particular). */
export const askedOf = (question: { askedOfUserId: string | null }, userId: string | undefined) =>
  question.askedOfUserId === null || question.askedOfUserId === userId;

/** An issue blocked on you, and why: it is blocked and assigned to you, and/or it has open questions for you. */
export interface BlockedIssue {
  id: string;
  identifier: string;
  title: string;
  status: string;
  assignedBlocked: boolean;
  questions: number;
}

/** "Blocked on you": the blocked issues assigned to you, then the issues with an open question for you, each once. */
export function blockedOnYou(assigned: Issue[], questions: CompanyQuestion[]): BlockedIssue[] {
  const byId = new Map<string, BlockedIssue>();
  for (const issue of assigned) {
    if (issue.status === "blocked")
      byId.set(issue.id, { id: issue.id, identifier: issue.identifier, title: issue.title, status: issue.status, assignedBlocked: true, questions: 0 });
  }
  for (const q of questions) {
    if (q.status !== "open") continue;
    const known = byId.get(q.issue.id) ?? { ...q.issue, assignedBlocked: false, questions: 0 };
    byId.set(q.issue.id, { ...known, questions: known.questions + 1 });
  }
  return [...byId.values()];
}

/** What the navigation counts: each thing once (an issue both assigned to you and blocked on you is one). */
export function waitingCount(parts: { decisions: number; questions: number; issueIds: string[] }): number {
  return parts.decisions + parts.questions + new Set(parts.issueIds).size;
}

type Webhook = components["schemas"]["Webhook"];
type NotificationChannel = components["schemas"]["NotificationChannel"];

/** A webhook or notification channel the service disabled (a day of failures): the board must fix and enable it. */
export interface StoppedDelivery {
  kind: "webhook" | "channel";
  id: string;
  name: string;
  reason: string;
  /** When it was disabled (its last change). */
  at: string;
  /** Its settings page, below the company. */
  rest: string;
}

/** The webhooks and channels disabled by the service (not those the board turned off), latest first. */
export function stoppedDeliveries(webhooks: Webhook[], channels: NotificationChannel[]): StoppedDelivery[] {
  const hooks = webhooks
    .filter((w) => !w.enabled && w.disabledReason)
    .map((w): StoppedDelivery => {
      let host = w.url;
      try {
        host = new URL(w.url).host;
      } catch {
        /* shown as it is */
      }
      return {
        kind: "webhook",
        id: w.id,
        name: w.description ? `${w.description} (${host})` : host,
        reason: w.disabledReason!,
        at: w.updatedAt,
        rest: `settings/webhooks/${w.id}`,
      };
    });
  const sent = channels
    .filter((c) => !c.enabled && c.disabledReason)
    .map(
      (c): StoppedDelivery => ({
        kind: "channel",
        id: c.id,
        name: `${c.name} (${c.kind})`,
        reason: c.disabledReason!,
        at: c.updatedAt,
        rest: `settings/notifications/${c.id}`,
      }),
    );
  return [...hooks, ...sent].sort((a, b) => b.at.localeCompare(a.at));
}

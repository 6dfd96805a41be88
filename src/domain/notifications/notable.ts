// Which events people are told about, and what they are told. Pure: the names come from the
// company's rows read beforehand (enqueue.ts). The notable events (the trigger
// notification_queue_on_event writes them to the queue): an approval waiting, a question from an
// agent, an issue assigned to a person, an issue set blocked, a run failed, a budget incident, a
// webhook or channel disabled. Each message says what happened, who did it, the issue or agent by
// name, and one link into the console. Event data is already redacted; nothing else is added but
// names and titles of the same company.
import type { ServiceEvent } from "../events/outbox";
import type { Notification, NotificationLevel } from "./message";

/** What a member can choose to hear about (preferences.topics). */
export const NOTIFICATION_TOPICS = ["approvals", "questions", "assignments", "blocked", "runs", "budgets", "channels"] as const;
export type NotificationTopic = (typeof NOTIFICATION_TOPICS)[number];
/** A member who set nothing hears about these (failed runs are many: opt in). */
export const DEFAULT_TOPICS: Record<NotificationTopic, boolean> = {
  approvals: true,
  questions: true,
  assignments: true,
  blocked: true,
  runs: false,
  budgets: true,
  channels: true,
};

/** The company's names and titles a message uses (read for the events at hand). */
export interface NotificationFacts {
  company: { id: string; name: string; issuePrefix: string };
  /** The console's origin (serviceApiUrl). */
  consoleUrl: string;
  agents: Map<string, { name: string }>;
  users: Map<string, { name: string }>;
  issues: Map<string, { identifier: string; title: string }>;
  approvals: Map<string, { type: string; title: string | null }>;
  questions: Map<string, { prompt: string; issueId: string }>;
  webhooks: Map<string, { url: string }>;
  channels: Map<string, { name: string; kind: string }>;
}

/** Who may receive it: a topic for members' preferences, one person only, and a channel to leave out. */
export interface Audience {
  topic: NotificationTopic;
  /** Only this member (a question asked of them, an issue assigned to them): no company channel, no one else. */
  onlyUserId: string | null;
  /** A channel that must not be told (the one that was disabled). */
  excludeChannelId: string | null;
}

export interface NotableEvent {
  notification: Notification;
  audience: Audience;
}

const str = (v: unknown) => (typeof v === "string" && v ? v : null);
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function actorName(event: ServiceEvent, facts: NotificationFacts): string | null {
  if (event.actor.type === "agent") return `${facts.agents.get(event.actor.id)?.name ?? "An agent"} (agent)`;
  if (event.actor.type === "user") return facts.users.get(event.actor.id)?.name ?? "A board member";
  return null;
}

/** The console page of the company (`path` without the prefix). */
const consoleLink = (facts: NotificationFacts, path: string) =>
  `${facts.consoleUrl.replace(/\/+$/, "")}/${encodeURIComponent(facts.company.issuePrefix)}/${path}`;

function issueFields(facts: NotificationFacts, issueId: string | null) {
  const issue = issueId ? facts.issues.get(issueId) : undefined;
  return issue ? [{ label: "Issue", value: `${issue.identifier} ${issue.title}` }] : [];
}

/** The notification an event gives, or null when it is not one people are told about. */
export function notableEvent(event: ServiceEvent, facts: NotificationFacts): NotableEvent | null {
  const data = event.data ?? {};
  const actor = actorName(event, facts);
  const base = (level: NotificationLevel, title: string, body: string, fields: Notification["fields"], link: Notification["link"]): Notification => ({
    eventType: event.type,
    title: cut(title, 200),
    body: cut(body, 2000),
    actor,
    fields,
    link,
    level,
    company: { id: facts.company.id, name: facts.company.name },
  });
  const audience = (topic: NotificationTopic, onlyUserId: string | null = null, excludeChannelId: string | null = null): Audience => ({
    topic,
    onlyUserId,
    excludeChannelId,
  });
  switch (event.type) {
    case "approval.created": {
      const approval = facts.approvals.get(event.subject.id);
      const what = approval?.title ?? (str(data.type) ?? "a request").replace(/_/g, " ");
      return {
        notification: base(
          "warning",
          `Approval waiting: ${what}`,
          `${actor ?? "Someone"} asks the board to approve ${what}.`,
          [{ label: "Type", value: String(data.type ?? approval?.type ?? "approval") }],
          {
            url: consoleLink(facts, "inbox"),
            label: "Open Waiting on you",
          },
        ),
        audience: audience("approvals"),
      };
    }
    case "question.asked": {
      const question = facts.questions.get(event.subject.id);
      const issueId = str(data.issueId) ?? question?.issueId ?? null;
      const issue = issueId ? facts.issues.get(issueId) : undefined;
      const agent = facts.agents.get(str(data.agentId) ?? "")?.name ?? "An agent";
      const prompt = question?.prompt ?? "";
      return {
        notification: base(
          "warning",
          `Question from ${agent}: ${cut(prompt.split("\n")[0] || "a question", 140)}`,
          prompt,
          [...issueFields(facts, issueId), ...(data.blocksIssue ? [{ label: "Blocks", value: "the issue, until answered" }] : [])],
          { url: consoleLink(facts, `issues/${encodeURIComponent(issue?.identifier ?? issueId ?? "")}`), label: "Answer it" },
        ),
        audience: audience("questions", str(data.askedOfUserId)),
      };
    }
    case "issue.assigned": {
      const userId = str(data.assigneeUserId);
      if (!userId) return null;
      const issue = facts.issues.get(event.subject.id);
      const name = issue ? `${issue.identifier} ${issue.title}` : String(data.identifier ?? "an issue");
      return {
        notification: base("info", `Assigned to you: ${name}`, `${actor ?? "Someone"} assigned ${name} to you.`, issueFields(facts, event.subject.id), {
          url: consoleLink(facts, `issues/${encodeURIComponent(issue?.identifier ?? String(data.identifier ?? event.subject.id))}`),
          label: "Open the issue",
        }),
        audience: audience("assignments", userId),
      };
    }
    case "issue.updated": {
      const changes = (data.changes ?? {}) as Record<string, { to?: unknown }>;
      if (changes.status?.to !== "blocked") return null;
      const issue = facts.issues.get(event.subject.id);
      const name = issue ? `${issue.identifier} ${issue.title}` : String(data.identifier ?? "An issue");
      return {
        notification: base("warning", `Blocked: ${name}`, `${actor ?? "Someone"} set ${name} blocked.`, issueFields(facts, event.subject.id), {
          url: consoleLink(facts, `issues/${encodeURIComponent(issue?.identifier ?? String(data.identifier ?? event.subject.id))}`),
          label: "Open the issue",
        }),
        audience: audience("blocked"),
      };
    }
    case "run.finished": {
      if (data.status !== "failed" && data.status !== "timed_out") return null;
      const agent = facts.agents.get(str(data.agentId) ?? "")?.name ?? "An agent";
      const code = str(data.errorCode);
      return {
        notification: base(
          "error",
          `Run ${data.status === "timed_out" ? "timed out" : "failed"}: ${agent}${code ? ` (${code})` : ""}`,
          `A run of ${agent} ended ${String(data.status).replace("_", " ")}${code ? ` with ${code}` : ""}.`,
          [{ label: "Agent", value: agent }, ...(code ? [{ label: "Error", value: code }] : []), ...issueFields(facts, str(data.issueId))],
          { url: consoleLink(facts, `runs/${encodeURIComponent(event.subject.id)}`), label: "Open the run" },
        ),
        audience: audience("runs"),
      };
    }
    case "budget.incident_opened": {
      const hard = data.kind === "hard";
      const scope = str(data.scopeType) ?? "budget";
      const scopeName =
        scope === "agent" ? (facts.agents.get(str(data.scopeId) ?? "")?.name ?? "an agent") : scope === "company" ? facts.company.name : "a project";
      const cents = (v: unknown) => (typeof v === "number" ? `$${(v / 100).toFixed(2)}` : "?");
      return {
        notification: base(
          hard ? "error" : "warning",
          `${hard ? "Budget hard stop" : "Budget warning"}: ${scopeName}`,
          hard
            ? `${scopeName} reached its budget (${cents(data.observedCents)} of ${cents(data.amountCents)}) and is paused until the board decides.`
            : `${scopeName} has spent ${cents(data.observedCents)} of its ${cents(data.amountCents)} budget.`,
          [
            { label: "Spent", value: cents(data.observedCents) },
            { label: "Budget", value: cents(data.amountCents) },
          ],
          { url: consoleLink(facts, hard ? "inbox" : "costs"), label: hard ? "Open Waiting on you" : "Open Costs" },
        ),
        audience: audience("budgets"),
      };
    }
    case "webhook.disabled": {
      const url = facts.webhooks.get(event.subject.id)?.url;
      const host = url ? new URL(url).host : "a webhook";
      return {
        notification: base("error", `Webhook disabled: ${host}`, `Every delivery to ${host} failed for 24 hours, so it was disabled.`, [], {
          url: consoleLink(facts, `settings/webhooks/${encodeURIComponent(event.subject.id)}`),
          label: "Open the webhook",
        }),
        audience: audience("channels"),
      };
    }
    case "notification_channel.disabled": {
      const channel = facts.channels.get(event.subject.id);
      const name = channel ? `${channel.name} (${channel.kind})` : "A notification channel";
      return {
        notification: base("error", `Notification channel disabled: ${name}`, `Every message to ${name} failed for 24 hours, so it was disabled.`, [], {
          url: consoleLink(facts, "settings/notifications"),
          label: "Open Notifications",
        }),
        audience: audience("channels", null, event.subject.id),
      };
    }
    default:
      return null;
  }
}

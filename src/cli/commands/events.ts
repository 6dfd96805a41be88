// `acp events tail`: the selected company's events as they happen, one line each (time, type,
// subject, a short summary), or each event's JSON on its own line with --json. Follows the live
// stream through drops, resuming with Last-Event-ID (src/cli/event-stream.ts); Ctrl-C ends it.
import type { Command } from "commander";
import type { components } from "../../client";
import { cliContext, unwrap, type CliContext } from "../context";
import { followEventStream } from "../event-stream";

export type ServiceEvent = components["schemas"]["Event"];
type Data = Record<string, unknown>;
type NameOf = (id: unknown) => string;

const text = (v: unknown) => (v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v)).replace(/\s+/g, " ");
const clip = (v: unknown, max = 60) => {
  const s = text(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};
const quoted = (v: unknown) => (v ? `"${clip(v)}"` : "");
const dollars = (cents: unknown) => (typeof cents === "number" ? `$${(cents / 100).toFixed(2)}` : "");
/** Non-empty parts, space-separated. */
const words = (...parts: unknown[]) => parts.map(text).filter(Boolean).join(" ");
const paren = (...parts: unknown[]) => (words(...parts) ? `(${parts.map(text).filter(Boolean).join(", ")})` : "");

/** issue.updated: "status: todo → done, title" (values where the event carries them). */
function changeList(data: Data, agent: NameOf): string {
  const changes = (data.changes ?? {}) as Record<string, { from: unknown; to: unknown }>;
  const changed = Array.isArray(data.changed) ? (data.changed as string[]) : Object.keys(changes);
  const value = (field: string, v: unknown) => (v === null || v === undefined ? "none" : field === "assigneeAgentId" ? agent(v) : clip(v, 40));
  return changed.map((field) => (changes[field] ? `${field}: ${value(field, changes[field].from)} → ${value(field, changes[field].to)}` : field)).join(", ");
}

/** Each catalogue type's one-line summary of its data (src/domain/events/catalogue.ts says what each carries). */
const SUMMARIES: Record<string, (data: Data, agent: NameOf) => string> = {
  "issue.created": (d, agent) => words(quoted(d.title), paren(d.status, d.priority), d.assigneeAgentId ? `→ ${agent(d.assigneeAgentId)}` : ""),
  "issue.updated": changeList,
  "issue.assigned": (d, agent) => (d.assigneeAgentId ? `→ ${agent(d.assigneeAgentId)}` : d.assigneeUserId ? `→ user ${text(d.assigneeUserId)}` : "unassigned"),
  "issue.commented": (d) => words("comment", d.commentId),
  "issue.checked_out": (d) => words("by run", d.runId),
  "issue.released": () => "",
  "approval.created": (d) => text(d.type),
  "approval.resolved": (d) => words(d.type, d.status, quoted(d.decisionNote)),
  "agent.created": (d) => words(d.role, paren(d.status)),
  "agent.status_changed": (d) => `${text(d.from)} → ${text(d.to)}`,
  "run.queued": (d, agent) => words(agent(d.agentId), paren(d.reason ?? d.invocationSource)),
  "run.started": (d, agent) => words(agent(d.agentId), paren(d.adapterType)),
  "run.finished": (d, agent) => words(agent(d.agentId), d.status, paren(d.errorCode)),
  "budget.incident_opened": (d) =>
    words(d.kind === "hard" ? "hard stop" : "soft threshold", "on", d.scopeType, `${dollars(d.observedCents)} of ${dollars(d.amountCents)}`),
  "budget.incident_resolved": (d) => words(d.action, dollars(d.amountCents)),
  "routine.run_created": (d) => words(d.source, d.status, d.linkedIssueId ? `issue ${text(d.linkedIssueId)}` : ""),
  "cost.recorded": (d, agent) => words(agent(d.agentId), [d.provider, d.model].map(text).filter(Boolean).join("/"), dollars(d.costCents)),
  ping: () => "test delivery",
};

const SUBJECT_WORDS: Record<string, string> = { budget_incident: "budget incident", cost_event: "cost" };

/** What the event is about: the issue's identifier, the agent's name, else its type and id. */
function subjectLabel(event: ServiceEvent, agent: NameOf): string {
  const data = event.data as Data;
  if (event.subject.type === "issue") return `issue ${text(data.identifier) || event.subject.id}`;
  if (event.subject.type === "agent") return `agent ${event.type === "agent.created" && data.name ? text(data.name) : agent(event.subject.id)}`;
  return `${SUBJECT_WORDS[event.subject.type] ?? event.subject.type} ${event.subject.id}`;
}

/** One event as a line: "2026-11-21 09:30:05  issue.created         issue ACM-3  "Ship it" (todo, high)" (UTC). */
export function eventLine(event: ServiceEvent, agent: NameOf = text): string {
  const summary = SUMMARIES[event.type]?.(event.data as Data, agent) ?? clip(event.data, 100);
  return `${event.occurredAt.slice(0, 19).replace("T", " ")}  ${event.type.padEnd(20)}  ${subjectLabel(event, agent)}  ${summary}`.trimEnd();
}

/** The company's agents by id (for lines), kept up to date from agent.created events; ids where unknown. */
async function agentBook(ctx: CliContext): Promise<{ name: NameOf; learn: (event: ServiceEvent) => void }> {
  const names = new Map<string, string>();
  try {
    const agents = await unwrap(ctx.api.GET("/api/companies/{companyId}/agents", { params: { path: { companyId: ctx.companyId() } } }));
    for (const agent of agents) names.set(agent.id, agent.name);
  } catch {
    /* lines show ids instead */
  }
  return {
    name: (id) => (typeof id === "string" ? (names.get(id) ?? id) : text(id)),
    learn(event) {
      const name = (event.data as Data).name;
      if (event.type === "agent.created" && typeof name === "string") names.set(event.subject.id, name);
    },
  };
}

export function eventCommands(program: Command) {
  const events = program.command("events").description("The selected company's events (the catalogue: see the README)");
  events
    .command("tail")
    .description("Follow the company's events as they happen (reconnects and resumes after a drop); Ctrl-C stops")
    .option("--types <patterns>", "only these types: comma-separated, exact or prefix.* (e.g. issue.*,run.finished)")
    .action(async (opts: { types?: string }, command: Command) => {
      const ctx = cliContext(command);
      const companyId = ctx.companyId();
      const url = new URL(`${ctx.url}/api/companies/${encodeURIComponent(companyId)}/events/stream`);
      if (opts.types) url.searchParams.set("types", opts.types);
      const agents = ctx.out.json ? null : await agentBook(ctx);
      const stop = new AbortController();
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
      await followEventStream({
        url: url.href,
        headers: ctx.token ? { authorization: `Bearer ${ctx.token}` } : {},
        signal: stop.signal,
        onOpen: ({ reconnected, resumedAfter }) =>
          ctx.out.note(
            reconnected
              ? `Reconnected${resumedAfter ? `, resuming after ${resumedAfter}` : ""}`
              : `Following events${opts.types ? ` (${opts.types})` : ""}; Ctrl-C stops`,
          ),
        onNote: (line) => ctx.out.note(line),
        onEvent: ({ data }) => {
          if (ctx.out.json) return void process.stdout.write(JSON.stringify(data) + "\n");
          if (!data || typeof data !== "object") return;
          const event = data as ServiceEvent;
          agents?.learn(event);
          process.stdout.write(eventLine(event, agents?.name) + "\n");
        },
      });
    });
}

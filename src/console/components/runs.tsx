// Heartbeat runs with their event logs: each run is a disclosure whose log (GET
// /api/heartbeat-runs/{id}/events) loads when it is opened and reloads when the run changes, and a
// link beside it to the run's page (pages/run.tsx). `Transcript` draws a log, here and on the run's page.
import { useState } from "preact/hooks";
import { agentName } from "../lib/agents";
import { api, call, type Schemas } from "../lib/api";
import { type Company, companyPath } from "../lib/companies";
import { label } from "../lib/enums";
import { ago, when } from "../lib/format";
import { useResource } from "../lib/resource";
import { StatusBadge } from "./badges";
import { Async } from "./states";

export interface RunSummary {
  id: string;
  agentId: string;
  status: string;
  /** Why it ran: "Assignment", "On demand", … */
  why: string;
  createdAt: string;
  finishedAt?: string | null;
  /** Its summary or error, when it has ended. */
  outcome?: string | null;
}

export function RunList({ runs, company, showAgent = true }: { runs: RunSummary[]; company: Company; showAgent?: boolean }) {
  return (
    <ul class="rows runs">
      {runs.map((run) => (
        <RunItem key={run.id} run={run} company={company} showAgent={showAgent} />
      ))}
    </ul>
  );
}

function RunItem({ run, company, showAgent }: { run: RunSummary; company: Company; showAgent: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <li>
      <details onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>
          {showAgent && <>{agentName(run.agentId)} </>}
          <StatusBadge status={run.status} /> {run.why}{" "}
          <time class="meta" dateTime={run.createdAt} title={when(run.createdAt)}>
            {ago(run.createdAt)}
          </time>
        </summary>
        {showAgent && (
          <p class="meta">
            <a href={companyPath(company, `agents/${run.agentId}`)}>Open {agentName(run.agentId)}</a>
          </p>
        )}
        {run.outcome && <p>{run.outcome}</p>}
        {open && <RunEvents runId={run.id} />}
      </details>
      <a class="run-link" href={runPath(company, run.id)}>
        Open the run
        <span class="visually-hidden">
          {" "}
          {showAgent ? `of ${agentName(run.agentId)} ` : ""}
          {ago(run.createdAt)}
        </span>
      </a>
    </li>
  );
}

function RunEvents({ runId }: { runId: string }) {
  const events = useResource(() => call(api.GET("/api/heartbeat-runs/{runId}/events", { params: { path: { runId }, query: { limit: 500 } } })), [runId], {
    types: ["run.*"],
    when: (event) => event.subject?.id === runId,
  });
  return (
    <Async resource={events} what="the run's events" empty="This run has logged no events.">
      {(list) => <Transcript events={list} />}
    </Async>
  );
}

/** The run's page. */
export const runPath = (company: Company, runId: string) => companyPath(company, `runs/${runId}`);

/** A run's log: its transcript (assistant text, thinking, tool calls and results, errors) and status lines, each marked by kind. */
export function Transcript({ events, label: name }: { events: Array<Schemas["HeartbeatRunEvent"]>; label?: string }) {
  return (
    <ol class="run-events" aria-label={name}>
      {events.map((event) => (
        <li key={event.seq} class={`run-event kind-${event.kind}`}>
          <span class="badge">{label(event.kind)}</span>{" "}
          <time class="meta" dateTime={event.createdAt} title={when(event.createdAt)}>
            {new Date(event.createdAt).toLocaleTimeString()}
          </time>{" "}
          {event.message}
        </li>
      ))}
    </ol>
  );
}

// One heartbeat run: its status, agent, issue, reason and times, the board's Cancel (live) or Retry
// (ended: the new run's page opens), its transcript as it grows (lib/run-tail.ts follows the run's
// `run.event` lines), what it used and cost, the session its task resumes, and its wake context and
// result. Follows the run's events.
import { RunControls, isLive } from "../components/run/controls";
import { RunSession } from "../components/run/session";
import { RunUsage } from "../components/run/usage";
import { StatusBadge } from "../components/badges";
import { runPath, Transcript } from "../components/runs";
import { Async, Empty, ErrorMessage, Loading } from "../components/states";
import { agentName } from "../lib/agents";
import { api, call, type Schemas } from "../lib/api";
import { type Company, companyPath } from "../lib/companies";
import { label } from "../lib/enums";
import { ago, duration, when } from "../lib/format";
import { useResource } from "../lib/resource";
import { useRunTail } from "../lib/run-tail";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

type Run = Schemas["HeartbeatRun"];

function Time({ iso }: { iso: string | null }) {
  if (!iso) return <>—</>;
  return (
    <time dateTime={iso} title={when(iso)}>
      {ago(iso)}
    </time>
  );
}

export default function RunPage({ company, params }: CompanyPageProps) {
  const runId = params.runId;
  const run = useResource(() => call(api.GET("/api/heartbeat-runs/{runId}", { params: { path: { runId } } })), [runId], {
    types: ["run.*"],
    when: (event) => event.subject?.id === runId,
  });
  useTitle(run.data ? `Run of ${agentName(run.data.agentId)}` : "Run");
  return (
    <Async resource={run} what="the run">
      {(r) => <RunView run={r} company={company} onChanged={() => void run.reload()} />}
    </Async>
  );
}

function RunView({ run, company, onChanged }: { run: Run; company: Company; onChanged: () => void }) {
  const issue = useResource(
    async () => (run.issueId ? call(api.GET("/api/issues/{issueId}", { params: { path: { issueId: run.issueId } } })) : null),
    [run.issueId],
    {
      types: ["issue.updated"],
      when: (event) => event.subject?.id === run.issueId,
    },
  );
  const retryOf = typeof run.context?.retryOfRunId === "string" ? run.context.retryOfRunId : null;
  const ended = run.finishedAt ?? null;
  const started = run.startedAt ?? null;
  return (
    <article>
      <p class="meta">
        <a href={companyPath(company, `agents/${run.agentId}`)}>{agentName(run.agentId)}</a> › Runs
      </p>
      <h1 tabIndex={-1}>
        Run <span class="mono">{run.id.slice(0, 8)}</span>
      </h1>
      <p class="meta">
        <StatusBadge status={run.status} /> {label(run.reason ?? run.invocationSource)} · {run.adapterType}
        {run.errorCode && run.errorCode !== run.status ? ` · ${label(run.errorCode)}` : ""}
      </p>
      <RunControls run={run} company={company} onChanged={onChanged} />
      <dl class="facts">
        <dt>Agent</dt>
        <dd>
          <a href={companyPath(company, `agents/${run.agentId}`)}>{agentName(run.agentId)}</a>
        </dd>
        <dt>Issue</dt>
        <dd>
          {!run.issueId ? (
            "None"
          ) : issue.data ? (
            <a href={companyPath(company, `issues/${issue.data.identifier}`)}>
              <span class="identifier">{issue.data.identifier}</span> {issue.data.title}
            </a>
          ) : (
            <a href={companyPath(company, `issues/${run.issueId}`)}>The issue</a>
          )}
        </dd>
        <dt>Reason</dt>
        <dd>
          {label(run.reason ?? run.invocationSource)}
          {run.reason && run.reason !== run.invocationSource ? ` (${label(run.invocationSource).toLowerCase()})` : ""}
        </dd>
        <dt>Queued</dt>
        <dd>
          <Time iso={run.createdAt} />
        </dd>
        <dt>Started</dt>
        <dd>
          <Time iso={started} />
        </dd>
        <dt>{ended ? "Ended" : "Running for"}</dt>
        <dd>
          {ended ? (
            <>
              <Time iso={ended} />
              {started && ` (took ${duration(Date.parse(ended) - Date.parse(started))})`}
            </>
          ) : started ? (
            duration(Date.now() - Date.parse(started))
          ) : (
            "—"
          )}
        </dd>
        {run.nextRetryAt && (
          <>
            <dt>Next retry</dt>
            <dd>
              <Time iso={run.nextRetryAt} /> (retry {run.retryCount + 1})
            </dd>
          </>
        )}
        {retryOf && (
          <>
            <dt>A retry of</dt>
            <dd>
              <a href={runPath(company, retryOf)}>run {retryOf.slice(0, 8)}</a>
            </dd>
          </>
        )}
      </dl>
      {run.summary && <p>{run.summary}</p>}
      {run.error && (
        <p class="error">
          <strong>Error:</strong> {run.error}
        </p>
      )}
      <RunTranscript run={run} companyId={company.id} />
      <RunUsage run={run} companyId={company.id} />
      <RunSession run={run} company={company} />
      <section aria-labelledby="run-context">
        <h2 id="run-context">Context and result</h2>
        <Json title="Wake context" value={run.context} />
        <Json title="Result" value={run.result} />
      </section>
    </article>
  );
}

function RunTranscript({ run, companyId }: { run: Run; companyId: string }) {
  const live = isLive(run);
  const tail = useRunTail(companyId, run.id, live);
  return (
    <section aria-labelledby="run-transcript">
      <h2 id="run-transcript">Transcript</h2>
      {live && (
        <p class="meta" role="status">
          {tail.mode === "stream" ? "Live: lines appear as the agent logs them." : tail.mode === "polling" ? "Read again every 2 s." : ""}
        </p>
      )}
      {tail.error && <ErrorMessage message={tail.error} />}
      {!tail.loaded ? (
        <Loading what="the transcript" />
      ) : tail.events.length === 0 ? (
        <Empty>{live ? "Nothing logged yet." : "This run logged nothing."}</Empty>
      ) : (
        <Transcript events={tail.events} label="Transcript" />
      )}
    </section>
  );
}

function Json({ title, value }: { title: string; value: Record<string, unknown> | null }) {
  if (!value || Object.keys(value).length === 0) return <p class="empty">{title}: none.</p>;
  return (
    <details>
      <summary>{title}</summary>
      <pre class="json">{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

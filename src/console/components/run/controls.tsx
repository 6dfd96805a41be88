// A run's board controls: Cancel while it is live (asked first), Retry once it has ended — a new
// run with the same agent, issue, reason and context, whose page opens. A refusal (the agent cannot
// run now, another run of it is live on the issue) shows the API's message, with a link to that run.
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso/router";
import { ApiError, api, call, type Schemas } from "../../lib/api";
import type { Company } from "../../lib/companies";
import { Feedback, useAction } from "../action";
import { runPath } from "../runs";

/** Statuses of a run that has not ended (LIVE_RUN_STATUSES in the service). */
export const LIVE_RUN_STATUSES: ReadonlyArray<Schemas["HeartbeatRun"]["status"]> = ["queued", "running", "scheduled_retry"];
export const isLive = (run: Schemas["HeartbeatRun"]) => LIVE_RUN_STATUSES.includes(run.status);

export function RunControls({ run, company, onChanged }: { run: Schemas["HeartbeatRun"]; company: Company; onChanged: () => void }) {
  const action = useAction();
  const { route } = useLocation();
  const [liveRunId, setLiveRunId] = useState<string | null>(null);
  const cancel = async () => {
    const cancelled = await action.run(() => call(api.POST("/api/heartbeat-runs/{runId}/cancel", { params: { path: { runId: run.id } } })), "Run cancelled.", {
      confirm: { question: "Cancel this run? The agent is told to stop and its work so far stays as it is.", yes: "Cancel the run", no: "Let it run" },
    });
    if (cancelled) onChanged();
  };
  const retry = async () => {
    setLiveRunId(null);
    const next = await action.run(async () => {
      try {
        return await call(api.POST("/api/heartbeat-runs/{runId}/retry", { params: { path: { runId: run.id } } }));
      } catch (err) {
        const other = err instanceof ApiError ? (err.details as { runId?: unknown } | undefined)?.runId : undefined;
        if (typeof other === "string") setLiveRunId(other);
        throw err;
      }
    });
    if (next) route(runPath(company, next.id));
  };
  return (
    <div class="stack run-controls">
      <div class="actions">
        {isLive(run) ? (
          <button type="button" class="danger" disabled={action.busy} onClick={() => void cancel()}>
            Cancel run
          </button>
        ) : (
          <button type="button" class="primary" disabled={action.busy} onClick={() => void retry()}>
            Retry
          </button>
        )}
      </div>
      <Feedback action={action} />
      {liveRunId && action.error && (
        <p>
          <a href={runPath(company, liveRunId)}>Open the live run</a>
        </p>
      )}
    </div>
  );
}

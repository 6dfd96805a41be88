// The session a run's task resumes (GET /api/agents/{id}/runtime-state): runs of an agent on the same
// issue (or without one, the agent's own task) resume the runtime's session reported last. The
// service keeps the task's latest session, not which one each run started from: this shows the
// task's session, and whether this run reported it.
import { api, call, type Schemas } from "../../lib/api";
import { type Company, companyPath } from "../../lib/companies";
import { ago, when } from "../../lib/format";
import { useResource } from "../../lib/resource";
import { Async } from "../states";
import { runPath } from "../runs";

export function RunSession({ run, company }: { run: Schemas["HeartbeatRun"]; company: Company }) {
  const taskKey = run.issueId ? `issue:${run.issueId}` : "agent";
  const state = useResource(() => call(api.GET("/api/agents/{agentId}/runtime-state", { params: { path: { agentId: run.agentId } } })), [run.agentId], {
    types: ["run.finished"],
    when: (event) => (event.data as { agentId?: string } | undefined)?.agentId === run.agentId,
  });
  return (
    <section aria-labelledby="run-session">
      <h2 id="run-session">Session</h2>
      <p class="meta">Runs of the agent on the same {run.issueId ? "issue" : "task"} resume the runtime's session reported last.</p>
      <Async resource={state} what="the session">
        {(s) => {
          const session = s.sessions.find((x) => x.taskKey === taskKey);
          if (!session) return <p class="empty">No session is kept for this task: the next run starts a new one.</p>;
          const messages = session.params.messages;
          return (
            <dl class="facts">
              <dt>Session</dt>
              <dd>{typeof messages === "number" ? `A conversation of ${messages} messages` : <code>{session.sessionId}</code>}</dd>
              {typeof session.params.model === "string" && (
                <>
                  <dt>Model</dt>
                  <dd>{session.params.model}</dd>
                </>
              )}
              {typeof session.params.cwd === "string" && (
                <>
                  <dt>Directory</dt>
                  <dd>{session.params.cwd}</dd>
                </>
              )}
              <dt>Reported</dt>
              <dd>
                {session.runId === run.id ? "by this run" : session.runId ? <a href={runPath(company, session.runId)}>by another run</a> : "by an earlier run"}{" "}
                ·{" "}
                <time dateTime={session.updatedAt} title={when(session.updatedAt)}>
                  {ago(session.updatedAt)}
                </time>
              </dd>
              <dt>All of the agent's sessions</dt>
              <dd>
                <a href={companyPath(company, `agents/${run.agentId}`)}>On its page</a>
              </dd>
            </dl>
          );
        }}
      </Async>
    </section>
  );
}

// An agent's runtime sessions (GET /api/agents/{id}/runtime-state): the session each task's runs
// resume (a local CLI's session id, with the directory and model it was made for; an edge agent's
// conversation), and the board's
// Reset sessions (POST …/runtime-state/reset-session), all of them or one task's: the next runs
// start new ones.
import { Feedback, useAction } from "../action";
import { Async } from "../states";
import { api, call } from "../../lib/api";
import { type Company, companyPath } from "../../lib/companies";
import { ago, when } from "../../lib/format";
import { useResource } from "../../lib/resource";

export function RuntimeSessions({ agentId, company }: { agentId: string; company: Company }) {
  const action = useAction();
  const state = useResource(() => call(api.GET("/api/agents/{agentId}/runtime-state", { params: { path: { agentId } } })), [agentId], {
    types: ["run.finished"],
    when: (event) => (event.data as { agentId?: string } | undefined)?.agentId === agentId,
  });
  const reset = async (taskKey?: string) => {
    const done = await action.run(
      () => call(api.POST("/api/agents/{agentId}/runtime-state/reset-session", { params: { path: { agentId } }, body: taskKey ? { taskKey } : {} })),
      (result) => `Forgot ${result.cleared} session${result.cleared === 1 ? "" : "s"}: the next runs start new ones.`,
    );
    if (done) state.reload();
  };
  return (
    <section aria-labelledby="agent-sessions">
      <h2 id="agent-sessions">Sessions</h2>
      <p class="meta">Runs on the same issue resume the runtime's session (only in the same working directory and with the same model).</p>
      <Async resource={state} what="sessions" isEmpty={(s) => s.sessions.length === 0} empty="No saved session: the next run starts a new one.">
        {(s) => (
          <>
            <ul class="rows">
              {s.sessions.map((session) => (
                <li key={session.taskKey}>
                  {session.issueId ? <a href={companyPath(company, `issues/${session.issueId}`)}>The issue's session</a> : "The agent's own session"}{" "}
                  {typeof session.params.messages === "number" ? `a conversation of ${session.params.messages} messages` : <code>{session.sessionId}</code>}{" "}
                  <span class="meta">
                    {typeof session.params.cwd === "string" ? `in ${session.params.cwd}` : ""}{" "}
                    {typeof session.params.model === "string" ? `with ${session.params.model}` : ""} ·{" "}
                    <time dateTime={session.updatedAt} title={when(session.updatedAt)}>
                      {ago(session.updatedAt)}
                    </time>
                  </span>{" "}
                  <button type="button" disabled={action.busy} onClick={() => reset(session.taskKey)}>
                    Forget
                  </button>
                </li>
              ))}
            </ul>
            <button type="button" disabled={action.busy} onClick={() => reset()}>
              Reset sessions
            </button>
          </>
        )}
      </Async>
      <Feedback action={action} />
    </section>
  );
}

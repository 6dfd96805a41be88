// The board's controls on an agent: Pause or Resume, Wake now, and Terminate — asked again first,
// as it cannot be undone.
import { api, call, type Schemas } from "../../lib/api";
import { Feedback, type RunOptions, useAction } from "../action";

export function AgentControls({ agent, onChanged }: { agent: Schemas["Agent"]; onChanged: () => void }) {
  const action = useAction();
  const path = { agentId: agent.id };
  const act = async (work: () => Promise<unknown>, done: string, options?: RunOptions) => {
    const ran = await action.run(
      async () => {
        await work();
        return true;
      },
      done,
      options,
    );
    if (ran) onChanged();
  };
  const terminate = () =>
    act(() => call(api.POST("/api/agents/{agentId}/terminate", { params: { path } })), `${agent.name} terminated.`, {
      confirm: { question: `Terminate ${agent.name}? Its keys are revoked and it can never run again.`, yes: `Terminate ${agent.name}`, no: "Keep the agent" },
    });
  const terminated = agent.status === "terminated";
  const paused = agent.status === "paused";
  return (
    <section class="controls" aria-label="Agent controls">
      {!terminated && (
        <div class="actions">
          {paused ? (
            <button
              type="button"
              class="primary"
              disabled={action.busy}
              onClick={() => act(() => call(api.POST("/api/agents/{agentId}/resume", { params: { path } })), `${agent.name} resumed.`)}
            >
              Resume
            </button>
          ) : (
            <button
              type="button"
              disabled={action.busy}
              onClick={() => act(() => call(api.POST("/api/agents/{agentId}/pause", { params: { path } })), `${agent.name} paused.`)}
            >
              Pause
            </button>
          )}
          <button
            type="button"
            disabled={action.busy || paused}
            onClick={() =>
              act(() => call(api.POST("/api/agents/{agentId}/wakeup", { params: { path }, body: { reason: "on_demand" } })), `${agent.name} woken.`)
            }
          >
            Wake now
          </button>
          <button type="button" class="danger" disabled={action.busy} onClick={terminate} aria-expanded={action.confirming !== null}>
            Terminate
          </button>
        </div>
      )}
      <Feedback action={action} />
    </section>
  );
}

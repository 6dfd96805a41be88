// One agent: what it is, its budget and latest runs, and the board's controls — Pause, Resume,
// Wake now, and Terminate (asked twice: it cannot be undone).
import { useState } from "preact/hooks";
import { StatusBadge } from "../components/badges";
import { Async } from "../components/states";
import { loadAgents } from "../lib/agents";
import { api, call, messageOf, type Schemas } from "../lib/api";
import { companyPath } from "../lib/companies";
import { label } from "../lib/enums";
import { ago, money, when } from "../lib/format";
import type { LiveEvent } from "../lib/live";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

type Agent = Schemas["Agent"];

export default function AgentPage({ company, params }: CompanyPageProps) {
  const agentId = params.agentId;
  const about = (event: LiveEvent) => event.subject?.id === agentId || (event.data as { agentId?: string } | undefined)?.agentId === agentId;
  const agent = useResource(() => call(api.GET("/api/agents/{agentId}", { params: { path: { agentId } } })), [agentId], {
    types: ["agent.*", "run.*"],
    when: about,
  });
  const runs = useResource(
    () => call(api.GET("/api/companies/{companyId}/heartbeat-runs", { params: { path: { companyId: company.id }, query: { agentId, limit: 10 } } })),
    [company.id, agentId],
    { types: ["run.*"], when: about },
  );
  useTitle(agent.data?.name ?? "Agent");
  const refresh = () => {
    void agent.reload();
    void runs.reload();
    void loadAgents(company.id);
  };

  return (
    <Async resource={agent} what="the agent">
      {(a) => (
        <article>
          <p class="meta">
            <a href={companyPath(company, "agents")}>Agents</a>
          </p>
          <h1 tabIndex={-1}>{a.name}</h1>
          <p class="meta">
            <StatusBadge status={a.status} /> {a.title ?? a.role} · {a.adapterType}
            {a.pauseReason ? ` · paused: ${label(a.pauseReason)}` : ""}
          </p>
          <AgentControls agent={a} onChanged={refresh} />
          <dl class="facts">
            <dt>Spend this month</dt>
            <dd>
              {money(a.spentMonthlyCents)}
              {a.budgetMonthlyCents > 0 ? ` of ${money(a.budgetMonthlyCents)}` : " (no budget)"}
            </dd>
            <dt>Reports to</dt>
            <dd>
              {a.chainOfCommand?.length
                ? a.chainOfCommand.map((boss, i) => (
                    <span key={boss.id}>
                      {i > 0 && " › "}
                      <a href={companyPath(company, `agents/${boss.id}`)}>{boss.name}</a>
                    </span>
                  ))
                : "The board"}
            </dd>
            <dt>Last run</dt>
            <dd>
              {a.lastHeartbeatAt ? (
                <time dateTime={a.lastHeartbeatAt} title={when(a.lastHeartbeatAt)}>
                  {ago(a.lastHeartbeatAt)}
                </time>
              ) : (
                "Never"
              )}
            </dd>
            {a.capabilities && (
              <>
                <dt>Capabilities</dt>
                <dd>{a.capabilities}</dd>
              </>
            )}
          </dl>
          <section aria-labelledby="agent-runs">
            <h2 id="agent-runs">Latest runs</h2>
            <Async resource={runs} what="runs" isEmpty={(page) => page.runs.length === 0} empty="No runs yet.">
              {(page) => (
                <ul class="rows">
                  {page.runs.map((run) => (
                    <li key={run.id}>
                      <StatusBadge status={run.status} /> {label(run.reason ?? run.invocationSource)}{" "}
                      <time class="meta" dateTime={run.createdAt} title={when(run.createdAt)}>
                        {ago(run.createdAt)}
                      </time>
                      {(run.summary || run.error) && <p class="meta">{run.error ?? run.summary}</p>}
                    </li>
                  ))}
                </ul>
              )}
            </Async>
          </section>
        </article>
      )}
    </Async>
  );
}

function AgentControls({ agent, onChanged }: { agent: Agent; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const [confirming, setConfirming] = useState(false);
  const path = { agentId: agent.id };
  const act = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      setNotice(done);
      onChanged();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
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
              disabled={busy}
              onClick={() => act(() => call(api.POST("/api/agents/{agentId}/resume", { params: { path } })), `${agent.name} resumed.`)}
            >
              Resume
            </button>
          ) : (
            <button
              type="button"
              disabled={busy}
              onClick={() => act(() => call(api.POST("/api/agents/{agentId}/pause", { params: { path } })), `${agent.name} paused.`)}
            >
              Pause
            </button>
          )}
          <button
            type="button"
            disabled={busy || paused}
            onClick={() =>
              act(() => call(api.POST("/api/agents/{agentId}/wakeup", { params: { path }, body: { reason: "on_demand" } })), `${agent.name} woken.`)
            }
          >
            Wake now
          </button>
          <button type="button" class="danger" disabled={busy} onClick={() => setConfirming(true)} aria-expanded={confirming}>
            Terminate
          </button>
        </div>
      )}
      {confirming && (
        <div class="confirm">
          <p>Terminate {agent.name}? Its keys are revoked and it can never run again.</p>
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() => act(() => call(api.POST("/api/agents/{agentId}/terminate", { params: { path } })), `${agent.name} terminated.`)}
          >
            Terminate {agent.name}
          </button>{" "}
          <button type="button" onClick={() => setConfirming(false)}>
            Keep the agent
          </button>
        </div>
      )}
      <p role="status" class="notice">
        {notice}
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </section>
  );
}

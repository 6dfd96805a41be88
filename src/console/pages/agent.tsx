// One agent: what it is, the board's controls — Pause, Resume, Wake now, and Terminate (asked
// twice: it cannot be undone) — its monthly budget, its configuration (secrets only as references
// to company secrets), its API keys (a new key's token is shown once), its latest runs with
// their event logs (the transcript of a local runtime) and the sessions its runs resume.
import { useState } from "preact/hooks";
import { Feedback, useAction } from "../components/action";
import { StatusBadge } from "../components/badges";
import { TextField } from "../components/fields";
import { RunList } from "../components/runs";
import { RuntimeSessions } from "../components/agent/runtime-sessions";
import { ShownOnce } from "../components/shown-once";
import { Async } from "../components/states";
import { agents, loadAgents } from "../lib/agents";
import { api, call, messageOf, type Schemas } from "../lib/api";
import { type Company, companyPath } from "../lib/companies";
import { type ConfigRow, configRows } from "../lib/config-view";
import { label } from "../lib/enums";
import { ago, money, when } from "../lib/format";
import type { LiveEvent } from "../lib/live";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

type Agent = Schemas["Agent"];

const directReports = (id: string) => (agents.value?.list ?? []).filter((a) => a.reportsTo === id);

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
                : "The board"}{" "}
              (<a href={`${companyPath(company, "agents")}?view=org`}>org chart</a>)
            </dd>
            <dt>Direct reports</dt>
            <dd>
              {directReports(a.id).length
                ? directReports(a.id).map((report, i) => (
                    <span key={report.id}>
                      {i > 0 && ", "}
                      <a href={companyPath(company, `agents/${report.id}`)}>{report.name}</a>
                    </span>
                  ))
                : "None"}
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
                <RunList
                  company={company}
                  showAgent={false}
                  runs={page.runs.map((run) => ({
                    id: run.id,
                    agentId: run.agentId,
                    status: run.status,
                    why: label(run.reason ?? run.invocationSource),
                    createdAt: run.createdAt,
                    outcome: run.error ?? run.summary,
                  }))}
                />
              )}
            </Async>
          </section>
          <RuntimeSessions agentId={a.id} company={company} />
          <BudgetSection agent={a} onSaved={refresh} />
          <ConfigurationSection agent={a} company={company} />
          <KeysSection agent={a} company={company} />
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

function BudgetSection({ agent, onSaved }: { agent: Agent; onSaved: () => void }) {
  const action = useAction();
  const [amount, setAmount] = useState(String(agent.budgetMonthlyCents / 100));
  const save = async (event: Event) => {
    event.preventDefault();
    const cents = Math.round(Number(amount) * 100);
    const saved = await action.run(
      () => call(api.PATCH("/api/agents/{agentId}/budgets", { params: { path: { agentId: agent.id } }, body: { budgetMonthlyCents: cents } })),
      cents > 0 ? `Monthly budget set to ${money(cents)}.` : "Monthly budget removed.",
    );
    if (saved) onSaved();
  };
  const budget = agent.budgetMonthlyCents;
  return (
    <section aria-labelledby="agent-budget">
      <h2 id="agent-budget">Budget</h2>
      {budget > 0 ? (
        <>
          <meter min={0} max={budget} value={agent.spentMonthlyCents} high={budget * 0.8} optimum={0} aria-label="Share of the monthly budget spent" />
          <p class="meta">
            {money(agent.spentMonthlyCents)} of {money(budget)} spent this month. At the budget the agent is paused until the board decides.
          </p>
        </>
      ) : (
        <p class="meta">No monthly budget: its spend is not capped (the company's budget still applies).</p>
      )}
      <form class="inline-form" onSubmit={save}>
        <TextField
          label="Monthly budget (USD)"
          type="number"
          min={0}
          step="0.01"
          inputMode="decimal"
          required
          value={amount}
          onInput={(e) => setAmount(e.currentTarget.value)}
          hint="0 removes the budget."
        />
        <button type="submit" disabled={action.busy}>
          Save budget
        </button>
      </form>
      <Feedback action={action} />
    </section>
  );
}

function ConfigurationSection({ agent, company }: { agent: Agent; company: Company }) {
  const secrets = useResource(() => call(api.GET("/api/companies/{companyId}/secrets", { params: { path: { companyId: company.id } } })), [company.id]);
  const secretName = (id: string) => secrets.data?.find((s) => s.id === id)?.name;
  const heartbeat = (agent.runtimeConfig?.heartbeat ?? {}) as { enabled?: boolean; intervalSec?: number };
  return (
    <section aria-labelledby="agent-config">
      <h2 id="agent-config">Configuration</h2>
      {agent.configRedacted ? (
        <p class="empty">You may not read this agent's configuration.</p>
      ) : (
        <>
          <dl class="facts">
            <dt>Adapter</dt>
            <dd>{agent.adapterType}</dd>
            <dt>Heartbeat</dt>
            <dd>{heartbeat.enabled ? `every ${heartbeat.intervalSec ?? "?"} s` : "off (woken by work only)"}</dd>
            {agent.desiredSkills.length > 0 && (
              <>
                <dt>Skills</dt>
                <dd>{agent.desiredSkills.join(", ")}</dd>
              </>
            )}
          </dl>
          <ConfigTable title="Adapter configuration" rows={configRows(agent.adapterConfig)} secretName={secretName} company={company} />
          <p class="meta">Secrets appear only as references to company secrets; their values are never shown here.</p>
        </>
      )}
    </section>
  );
}

function ConfigTable({
  title,
  rows,
  secretName,
  company,
}: {
  title: string;
  rows: ConfigRow[];
  secretName: (id: string) => string | undefined;
  company: Company;
}) {
  if (rows.length === 0) return <p class="empty">No {title.toLowerCase()}.</p>;
  return (
    <table class="table config">
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">Setting</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.path}>
            <th scope="row" class="mono">
              {row.path}
            </th>
            <td>
              {row.value.kind === "secret" ? (
                <span class="secret-ref">
                  Secret <a href={companyPath(company, "settings/secrets")}>{secretName(row.value.secretId) ?? row.value.secretId}</a>, version{" "}
                  {row.value.version}
                </span>
              ) : row.value.kind === "hidden" ? (
                <span class="meta">Hidden (secret-like setting)</span>
              ) : row.value.kind === "empty" ? (
                <span class="meta">Not set</span>
              ) : (
                <span class="mono">{row.value.text}</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function KeysSection({ agent, company }: { agent: Agent; company: Company }) {
  const action = useAction();
  const [name, setName] = useState("");
  const [token, setToken] = useState<string | null>(null);
  // The API lists no keys: the ones created so far are read from the agent's activity.
  const created = useResource(
    async () =>
      (
        await call(
          api.GET("/api/companies/{companyId}/activity", { params: { path: { companyId: company.id }, query: { entityType: "agent", entityId: agent.id } } }),
        )
      ).filter((entry) => entry.action === "agent.key_created"),
    [company.id, agent.id],
  );
  const create = async (event: Event) => {
    event.preventDefault();
    const key = await action.run(
      () => call(api.POST("/api/agents/{agentId}/keys", { params: { path: { agentId: agent.id } }, body: name.trim() ? { name: name.trim() } : {} })),
      (k) => `Key ${k.name ?? "(unnamed)"} created.`,
    );
    if (key) {
      setToken(key.token);
      setName("");
      void created.reload();
    }
  };
  const usable = agent.status !== "terminated" && agent.status !== "pending_approval";
  return (
    <section aria-labelledby="agent-keys">
      <h2 id="agent-keys">API keys</h2>
      <p class="meta">An agent calls the API with its key (Authorization: Bearer …). A key's token is shown once, when it is created.</p>
      <Async resource={created} what="keys" empty="No keys created yet.">
        {(entries) => (
          <ul class="rows">
            {entries.map((entry) => (
              <li key={entry.id}>
                {typeof entry.details?.name === "string" ? entry.details.name : "Unnamed key"}{" "}
                <span class="meta">
                  created{" "}
                  <time dateTime={entry.createdAt} title={when(entry.createdAt)}>
                    {ago(entry.createdAt)}
                  </time>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Async>
      {token && <ShownOnce label="API key token" value={token} onClose={() => setToken(null)} />}
      {usable ? (
        <form class="inline-form" onSubmit={create}>
          <TextField label="Key name" maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} hint="Optional, e.g. where it is used." />
          <button type="submit" disabled={action.busy}>
            Create key
          </button>
        </form>
      ) : (
        <p class="empty">Keys cannot be created for an agent that is {label(agent.status).toLowerCase()}.</p>
      )}
      <Feedback action={action} />
    </section>
  );
}

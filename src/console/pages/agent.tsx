// One agent: what it is, the board's controls — Pause, Resume, Wake now, and Terminate (asked
// twice: it cannot be undone) — its monthly budget, its settings (edited: name to run limits), its
// desired skills, its configuration (secrets only as references to company secrets), its API keys
// (a new key's token is shown once), its latest runs with their event logs (the transcript of a
// local runtime) and the sessions its runs resume.
import { BudgetSection } from "../components/agent/budget";
import { ConfigurationSection } from "../components/agent/configuration";
import { AgentControls } from "../components/agent/controls";
import { KeysSection } from "../components/agent/keys";
import { RuntimeSessions } from "../components/agent/runtime-sessions";
import { SettingsSection } from "../components/agent/settings";
import { AgentSkills } from "../components/agent/skills";
import { StatusBadge } from "../components/badges";
import { RunList } from "../components/runs";
import { Async } from "../components/states";
import { agents, loadAgents } from "../lib/agents";
import { api, call } from "../lib/api";
import { companyPath } from "../lib/companies";
import { label } from "../lib/enums";
import { ago, money, when } from "../lib/format";
import type { LiveEvent } from "../lib/live";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

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
          <SettingsSection agent={a} company={company} onSaved={refresh} />
          <AgentSkills agentId={a.id} company={company} />
          <ConfigurationSection agent={a} company={company} />
          <KeysSection agent={a} />
        </article>
      )}
    </Async>
  );
}

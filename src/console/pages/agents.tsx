// The company's agents: status, role, reporting line and the month's spend against each budget.
import { StatusBadge } from "../components/badges";
import { Empty, ErrorMessage, Loading } from "../components/states";
import { agentName, agents, agentsError, loadAgents } from "../lib/agents";
import { companyPath } from "../lib/companies";
import { ago, money } from "../lib/format";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

export default function AgentsPage({ company }: CompanyPageProps) {
  useTitle("Agents");
  const current = agents.value?.companyId === company.id ? agents.value.list : undefined;
  return (
    <>
      <h1 tabIndex={-1}>Agents</h1>
      {agentsError.value && <ErrorMessage message={agentsError.value} retry={() => void loadAgents(company.id)} />}
      {!current ? (
        !agentsError.value && <Loading what="agents" />
      ) : current.length === 0 ? (
        <Empty>No agents yet.</Empty>
      ) : (
        <ul class="rows agent-list">
          {current.map((agent) => (
            <li key={agent.id}>
              <a href={companyPath(company, `agents/${agent.id}`)}>{agent.name}</a> <StatusBadge status={agent.status} />{" "}
              <span class="meta">
                {agent.title ?? agent.role}
                {agent.reportsTo ? ` · reports to ${agentName(agent.reportsTo)}` : ""} · {money(agent.spentMonthlyCents)}
                {agent.budgetMonthlyCents > 0 ? ` of ${money(agent.budgetMonthlyCents)}` : ""} this month
                {agent.lastHeartbeatAt ? ` · last run ${ago(agent.lastHeartbeatAt)}` : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

// The company's agents: a list (status, role, reporting line and the month's spend against each
// budget) or the org chart drawn from `reportsTo` (`?view=org`, where the board changes an agent's
// manager); "Hire agent" opens the hiring form.
import { OrgChart } from "../components/agents/org-chart";
import { StatusBadge } from "../components/badges";
import { Empty, ErrorMessage, Loading } from "../components/states";
import { agentName, agents, agentsError, loadAgents } from "../lib/agents";
import { companyPath } from "../lib/companies";
import { ago, money } from "../lib/format";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

export default function AgentsPage({ company, query }: CompanyPageProps) {
  const org = query.view === "org";
  useTitle(org ? "Org chart" : "Agents");
  const current = agents.value?.companyId === company.id ? agents.value.list : undefined;
  const listHref = companyPath(company, "agents");
  return (
    <>
      <div class="title-row">
        <h1 tabIndex={-1}>Agents</h1>
        <a class="button primary" href={companyPath(company, "agents/new")}>
          Hire agent
        </a>
      </div>
      <nav class="views" aria-label="Agent views">
        <a href={listHref} aria-current={org ? undefined : "page"}>
          List
        </a>
        <a href={`${listHref}?view=org`} aria-current={org ? "page" : undefined}>
          Org chart
        </a>
      </nav>
      {agentsError.value && <ErrorMessage message={agentsError.value} retry={() => void loadAgents(company.id)} />}
      {!current ? (
        !agentsError.value && <Loading what="agents" />
      ) : current.length === 0 ? (
        <Empty>No agents yet. Hire the first with “Hire agent”.</Empty>
      ) : org ? (
        <OrgChart agents={current} company={company} />
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

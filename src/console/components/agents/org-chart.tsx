// The org chart drawn from each agent's `reportsTo`, where the board changes an agent's manager: each
// card has a "Manager" choice (the board, or any agent not under it); the change saves at once and
// the chart redraws from the agents list (reloaded now, and by the agent.updated event elsewhere).
import { StatusBadge } from "../badges";
import { Feedback, useAction } from "../action";
import { SelectField } from "../fields";
import { type Agent, loadAgents } from "../../lib/agents";
import { api, call } from "../../lib/api";
import { type Company, companyPath } from "../../lib/companies";
import { managerChoices, type OrgNode, orgChart } from "../../lib/org-chart";

export function OrgChart({ agents, company }: { agents: Agent[]; company: Company }) {
  return (
    <section aria-labelledby="org-chart">
      <h2 id="org-chart">Org chart</h2>
      <p class="meta">Who reports to whom; agents at the top report to the board. Choose an agent's manager on its card.</p>
      <ul class="org">
        {orgChart(agents).map((node) => (
          <OrgBranch key={node.agent.id} node={node} agents={agents} company={company} />
        ))}
      </ul>
    </section>
  );
}

function OrgBranch({ node, agents, company }: { node: OrgNode<Agent>; agents: Agent[]; company: Company }) {
  const { agent, reports } = node;
  return (
    <li>
      <div class="org-card">
        <a href={companyPath(company, `agents/${agent.id}`)}>{agent.name}</a> <StatusBadge status={agent.status} />
        <div class="meta">
          {agent.title ?? agent.role}
          {reports.length > 0 && ` · ${reports.length} direct ${reports.length === 1 ? "report" : "reports"}`}
        </div>
        <ManagerChoice agent={agent} agents={agents} company={company} />
      </div>
      {reports.length > 0 && (
        <ul aria-label={`Reports to ${agent.name}`}>
          {reports.map((child) => (
            <OrgBranch key={child.agent.id} node={child} agents={agents} company={company} />
          ))}
        </ul>
      )}
    </li>
  );
}

function ManagerChoice({ agent, agents, company }: { agent: Agent; agents: Agent[]; company: Company }) {
  const action = useAction();
  const choices = managerChoices(agents, agent.id);
  const change = async (reportsTo: string | null) => {
    const name = reportsTo ? (agents.find((a) => a.id === reportsTo)?.name ?? "its new manager") : "the board";
    const saved = await action.run(
      () => call(api.PATCH("/api/agents/{agentId}", { params: { path: { agentId: agent.id } }, body: { reportsTo } })),
      `${agent.name} now reports to ${name}.`,
    );
    if (saved) await loadAgents(company.id);
  };
  return (
    <div class="org-manager">
      <SelectField
        label={`Manager of ${agent.name}`}
        value={agent.reportsTo ?? ""}
        disabled={action.busy}
        options={[{ value: "", label: "The board" }, ...choices.map((a) => ({ value: a.id, label: a.name }))]}
        onChange={(e) => void change(e.currentTarget.value || null)}
      />
      <Feedback action={action} />
    </div>
  );
}

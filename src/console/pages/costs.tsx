// Costs and budgets: spend for a period (this month, the last 7 or 30 days, all time; in the URL)
// by agent, project and provider, the rolling 5 h / 24 h / 7 d windows, every budget policy with
// its spend and status (and a form to set one), and the open budget incidents. Follows cost,
// budget and agent events.
import { Fragment } from "preact";
import { useLocation } from "preact-iso/router";
import { StatusBadge } from "../components/badges";
import { BudgetForm, PolicyTable } from "../components/costs/budgets";
import { SpendTable } from "../components/costs/spend-table";
import { SelectField } from "../components/fields";
import { Async } from "../components/states";
import { api, call } from "../lib/api";
import { scopeLabel } from "../lib/budgets";
import { companyPath } from "../lib/companies";
import { ago, money, when } from "../lib/format";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

const RANGES = [
  { value: "month", label: "This month (UTC)", phrase: "this month" },
  { value: "7d", label: "Last 7 days", phrase: "the last 7 days" },
  { value: "30d", label: "Last 30 days", phrase: "the last 30 days" },
  { value: "all", label: "All time", phrase: "all time" },
] as const;
type Range = (typeof RANGES)[number]["value"];

const DAY_MS = 86_400_000;
function bounds(range: Range, now = new Date()): { from?: string } {
  if (range === "all") return {};
  if (range === "month") return { from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString() };
  return { from: new Date(now.getTime() - (range === "7d" ? 7 : 30) * DAY_MS).toISOString() };
}

const LIVE = { types: ["cost.*", "budget.*", "agent.*"] };

export default function CostsPage({ company, query }: CompanyPageProps) {
  useTitle("Costs and budgets");
  const { route, path: here } = useLocation();
  const chosen = RANGES.find((r) => r.value === query.range) ?? RANGES[0];
  const range = chosen.value;
  const path = { companyId: company.id };
  const spend = useResource(
    async () => {
      const q = bounds(range);
      const [summary, byAgent, byProject, byProvider] = await Promise.all([
        call(api.GET("/api/companies/{companyId}/costs/summary", { params: { path, query: q } })),
        call(api.GET("/api/companies/{companyId}/costs/by-agent", { params: { path, query: q } })),
        call(api.GET("/api/companies/{companyId}/costs/by-project", { params: { path, query: q } })),
        call(api.GET("/api/companies/{companyId}/costs/by-provider", { params: { path, query: q } })),
      ]);
      return { summary, byAgent, byProject, byProvider };
    },
    [company.id, range],
    LIVE,
  );
  const windows = useResource(() => call(api.GET("/api/companies/{companyId}/costs/window-spend", { params: { path } })), [company.id], LIVE);
  const overview = useResource(() => call(api.GET("/api/companies/{companyId}/budgets/overview", { params: { path } })), [company.id], LIVE);
  const projects = useResource(() => call(api.GET("/api/companies/{companyId}/projects", { params: { path } })), [company.id]);
  const rangePhrase = chosen.phrase;

  return (
    <>
      <h1 tabIndex={-1}>Costs and budgets</h1>
      <div class="filters narrow-form">
        <SelectField
          label="Period"
          value={range}
          options={RANGES.map((r) => ({ value: r.value, label: r.label }))}
          onChange={(e) => route(`${here}${e.currentTarget.value === "month" ? "" : `?range=${e.currentTarget.value}`}`, true)}
        />
      </div>
      <Async resource={spend} what="costs">
        {({ summary, byAgent, byProject, byProvider }) => (
          <>
            <div class="tiles">
              <section class="tile" aria-labelledby="tile-period">
                <h2 id="tile-period">Spend, {rangePhrase}</h2>
                <p class="big">{money(summary.spendCents)}</p>
                <p class="meta">{summary.budgetCents > 0 ? `Monthly budget ${money(summary.budgetCents)}` : "No monthly company budget"}</p>
              </section>
              <Async resource={windows} what="rolling spend">
                {(w) => (
                  <section class="tile" aria-labelledby="tile-rolling">
                    <h2 id="tile-rolling">Rolling spend</h2>
                    <dl>
                      {w.windows.map((row) => (
                        <Fragment key={row.window}>
                          <dt>Last {row.window}</dt>
                          <dd>{money(row.spendCents)}</dd>
                        </Fragment>
                      ))}
                    </dl>
                  </section>
                )}
              </Async>
            </div>
            <SpendTable
              title="By agent"
              empty="No agent spent anything in this period."
              rows={byAgent.map((r) => ({
                key: r.agentId,
                name: r.agentName ?? "Unknown agent",
                href: companyPath(company, `agents/${r.agentId}`),
                ...r,
              }))}
            />
            <SpendTable
              title="By project"
              empty="No spend was recorded against a project in this period."
              rows={byProject.map((r) => ({
                key: r.projectId,
                name: r.projectName ?? "Unknown project",
                href: companyPath(company, `projects/${r.projectId}`),
                ...r,
              }))}
            />
            <SpendTable title="By provider" empty="No spend in this period." rows={byProvider.map((r) => ({ key: r.provider, name: r.provider, ...r }))} />
          </>
        )}
      </Async>
      <Async resource={overview} what="budgets">
        {(o) => (
          <>
            <section aria-labelledby="budget-policies">
              <h2 id="budget-policies">Budget policies</h2>
              <p class="meta">
                Paused by a budget: {o.pausedAgentCount} agents, {o.pausedProjectCount} projects · pending budget approvals: {o.pendingApprovalCount}
              </p>
              {o.policies.length === 0 ? (
                <p class="empty">No budget policies yet. Set one below.</p>
              ) : (
                <PolicyTable policies={o.policies} projects={projects.data ?? []} />
              )}
              <BudgetForm company={company} projects={projects.data ?? []} onSaved={() => void overview.reload()} />
            </section>
            <section aria-labelledby="budget-incidents">
              <h2 id="budget-incidents">Open budget incidents</h2>
              {o.activeIncidents.length === 0 ? (
                <p class="empty">No budget incident is open.</p>
              ) : (
                <>
                  <ul class="rows">
                    {o.activeIncidents.map((i) => (
                      <li key={i.id}>
                        <StatusBadge status={i.kind === "hard" ? "paused" : "warning"} /> {scopeLabel(i, projects.data ?? [])}:{" "}
                        {i.kind === "hard" ? "stopped at its budget" : "near its budget"} — {money(i.observedCents)} of {money(i.amountCents)}{" "}
                        <time class="meta" dateTime={i.createdAt} title={when(i.createdAt)}>
                          {ago(i.createdAt)}
                        </time>
                      </li>
                    ))}
                  </ul>
                  <p>
                    <a href={companyPath(company, "inbox")}>Decide them in “Waiting on you”</a>
                  </p>
                </>
              )}
            </section>
          </>
        )}
      </Async>
    </>
  );
}

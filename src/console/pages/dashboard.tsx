// The company at a glance: the dashboard snapshot (agents and tasks by status, the month's spend
// against the budget, pending approvals, budget incidents), the runs going on now, the last 14
// days of spend and the latest activity. Everything follows the company's events.
import { Fragment } from "preact";
import { ActivityRow } from "../components/activity-row";
import { SpendChart } from "../components/spend-chart";
import { StatusBadge } from "../components/badges";
import { Async } from "../components/states";
import { agentName } from "../lib/agents";
import { api, call, type Schemas } from "../lib/api";
import { companyPath } from "../lib/companies";
import { label } from "../lib/enums";
import { ago, money } from "../lib/format";
import { useResource } from "../lib/resource";
import { bucketSpend, dayBounds } from "../lib/spend";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

const CHART_DAYS = 14;
const COST_PAGE = 500;
const ACTIVITY_SHOWN = 12;

export default function DashboardPage({ company }: CompanyPageProps) {
  useTitle("Dashboard");
  const path = { companyId: company.id };
  const snapshot = useResource(() => call(api.GET("/api/companies/{companyId}/dashboard", { params: { path } })), [company.id], {
    types: ["issue.*", "agent.*", "approval.*", "budget.*", "cost.*", "run.*"],
  });
  const runs = useResource(
    async () => {
      const [running, queued] = await Promise.all(
        (["running", "queued"] as const).map((status) =>
          call(api.GET("/api/companies/{companyId}/heartbeat-runs", { params: { path, query: { status, limit: 20 } } })),
        ),
      );
      return [...running.runs, ...queued.runs];
    },
    [company.id],
    { types: ["run.*"] },
  );
  const spend = useResource(() => dailySpend(company.id), [company.id], { types: ["cost.*"] });
  const activity = useResource(
    async () => call(api.GET("/api/companies/{companyId}/activity", { params: { path, query: { limit: ACTIVITY_SHOWN } } })),
    [company.id],
    { types: ["*"] },
  );

  return (
    <>
      <h1 tabIndex={-1}>Dashboard</h1>
      <Async resource={snapshot} what="the dashboard">
        {(d) => <Snapshot dashboard={d} inboxHref={companyPath(company, "inbox")} />}
      </Async>
      <div class="columns">
        <section aria-labelledby="runs-now">
          <h2 id="runs-now">Running now</h2>
          <Async resource={runs} what="runs" empty="No agent is running or queued.">
            {(list) => (
              <ul class="rows">
                {list.map((run) => (
                  <li key={run.id}>
                    <a href={companyPath(company, `agents/${run.agentId}`)}>{agentName(run.agentId)}</a> <StatusBadge status={run.status} />{" "}
                    <span class="meta">
                      {run.reason ? label(run.reason) : label(run.invocationSource)} · {ago(run.startedAt ?? run.createdAt)}
                    </span>{" "}
                    <a href={companyPath(company, `runs/${run.id}`)}>
                      Open the run<span class="visually-hidden"> of {agentName(run.agentId)}</span>
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </Async>
        </section>
        <section aria-labelledby="spend-days">
          <h2 id="spend-days">Spend, last {CHART_DAYS} days</h2>
          <Async resource={spend} what="spend">
            {(days) => <SpendChart days={days} />}
          </Async>
        </section>
      </div>
      <section aria-labelledby="recent-activity">
        <h2 id="recent-activity">Recent activity</h2>
        <p class="meta">
          <a href={companyPath(company, "activity")}>All activity</a>
        </p>
        <Async resource={activity} what="activity" empty="Nothing has happened yet.">
          {(entries) => (
            <ul class="rows">
              {entries.map((entry) => (
                <ActivityRow key={entry.id} entry={entry} company={company} />
              ))}
            </ul>
          )}
        </Async>
      </section>
    </>
  );
}

function Snapshot({ dashboard: d, inboxHref }: { dashboard: Schemas["Dashboard"]; inboxHref: string }) {
  const { monthSpendCents: spent, monthBudgetCents: budget } = d.costs;
  return (
    <div class="tiles">
      <Tile
        title="Agents"
        rows={[
          ["Active", d.agents.active],
          ["Running", d.agents.running],
          ["Paused", d.agents.paused],
          ["Error", d.agents.error],
        ]}
      />
      <Tile
        title="Tasks"
        rows={[
          ["Open", d.tasks.open],
          ["In progress", d.tasks.inProgress],
          ["Blocked", d.tasks.blocked],
          ["Done", d.tasks.done],
        ]}
      />
      <section class="tile" aria-labelledby="tile-spend">
        <h2 id="tile-spend">Spend this month</h2>
        <p class="big">{money(spent)}</p>
        {budget > 0 ? (
          <>
            <meter min={0} max={budget} value={spent} high={budget * 0.8} optimum={0} aria-label="Share of the monthly budget spent" />
            <p class="meta">
              {d.costs.monthUtilizationPercent}% of {money(budget)}
            </p>
          </>
        ) : (
          <p class="meta">No monthly budget set</p>
        )}
      </section>
      <section class="tile" aria-labelledby="tile-waiting">
        <h2 id="tile-waiting">Waiting on you</h2>
        <dl>
          <dt>Pending approvals</dt>
          <dd>{d.pendingApprovals}</dd>
          <dt>Budget incidents</dt>
          <dd>{d.budgets.activeIncidents}</dd>
          <dt>Paused by budget</dt>
          <dd>
            {d.budgets.pausedAgents} agents, {d.budgets.pausedProjects} projects
          </dd>
        </dl>
        <a href={inboxHref}>Open the inbox</a>
      </section>
    </div>
  );
}

function Tile({ title, rows }: { title: string; rows: Array<[string, number]> }) {
  const id = `tile-${title.toLowerCase()}`;
  return (
    <section class="tile" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <dl>
        {rows.map(([name, value]) => (
          <Fragment key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}

/** The last 14 UTC days of spend (see lib/spend.ts): one page of cost events, then any day it did not cover. */
async function dailySpend(companyId: string) {
  const path = { companyId };
  const events = await call(api.GET("/api/companies/{companyId}/cost-events", { params: { path, query: { limit: COST_PAGE } } }));
  const { days, incomplete } = bucketSpend(events, events.length === COST_PAGE, CHART_DAYS, new Date());
  const totals = await Promise.all(
    incomplete.map((day) => call(api.GET("/api/companies/{companyId}/costs/summary", { params: { path, query: dayBounds(day) } }))),
  );
  const exact = new Map(incomplete.map((day, i) => [day, totals[i].spendCents]));
  return days.map((d) => ({ day: d.day, cents: exact.get(d.day) ?? d.cents }));
}

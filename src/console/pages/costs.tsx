// Costs and budgets: spend for a period (this month, the last 7 or 30 days, all time; in the URL)
// by agent, project and provider, the rolling 5 h / 24 h / 7 d windows, every budget policy with
// its spend and status (and a form to set one), and the open budget incidents. Follows cost,
// budget and agent events.
import { Fragment } from "preact";
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso/router";
import { Feedback, useAction } from "../components/action";
import { StatusBadge } from "../components/badges";
import { SelectField, TextField } from "../components/fields";
import { Async } from "../components/states";
import { agents } from "../lib/agents";
import { api, call } from "../lib/api";
import { type BudgetPolicy, scopeLabel, WINDOW_LABEL } from "../lib/budgets";
import { type Company, companyPath } from "../lib/companies";
import { BUDGET_WINDOWS, type BudgetWindow } from "../lib/enums";
import { ago, count, money, when } from "../lib/format";
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
  const range: Range = RANGES.some((r) => r.value === query.range) ? (query.range as Range) : "month";
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
  const rangePhrase = RANGES.find((r) => r.value === range)!.phrase;

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

interface SpendRow {
  key: string;
  name: string;
  href?: string;
  costCents: number;
  inputTokens: number;
  outputTokens: number;
  eventCount: number;
}

function SpendTable({ title, rows, empty }: { title: string; rows: SpendRow[]; empty: string }) {
  const id = `spend-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows.length === 0 ? (
        <p class="empty">{empty}</p>
      ) : (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" class="num">
                  Spend
                </th>
                <th scope="col" class="num">
                  Tokens in / out
                </th>
                <th scope="col" class="num">
                  Events
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key}>
                  <th scope="row">{r.href ? <a href={r.href}>{r.name}</a> : r.name}</th>
                  <td class="num">{money(r.costCents)}</td>
                  <td class="num">
                    {count(r.inputTokens)} / {count(r.outputTokens)}
                  </td>
                  <td class="num">{count(r.eventCount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function PolicyTable({ policies, projects }: { policies: BudgetPolicy[]; projects: Array<{ id: string; name: string }> }) {
  return (
    <div class="table-wrap">
      <table class="table">
        <thead>
          <tr>
            <th scope="col">Applies to</th>
            <th scope="col">Window</th>
            <th scope="col" class="num">
              Spent of budget
            </th>
            <th scope="col">Status</th>
            <th scope="col">Rules</th>
          </tr>
        </thead>
        <tbody>
          {policies.map((p) => (
            <tr key={p.id}>
              <th scope="row">{scopeLabel(p, projects)}</th>
              <td>{WINDOW_LABEL[p.windowKind]}</td>
              <td class="num">
                {money(p.observedCents)} of {money(p.amountCents)} ({p.utilizationPercent}%)
              </td>
              <td>
                <StatusBadge status={p.isActive ? p.status : "inactive"} />
              </td>
              <td class="meta">
                warn at {p.warnPercent}%{p.hardStopEnabled ? ", pause at 100%" : ", no hard stop"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Sets (creates or changes) the budget of the company, an agent or a project. */
function BudgetForm({ company, projects, onSaved }: { company: Company; projects: Array<{ id: string; name: string }>; onSaved: () => void }) {
  const action = useAction();
  const [scopeType, setScopeType] = useState<"company" | "agent" | "project">("company");
  const [windowKind, setWindowKind] = useState<BudgetWindow>("calendar_month_utc");
  const agentList = agents.value?.list ?? [];
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const scopeId = scopeType === "company" ? company.id : String(form.get("scopeId") ?? "");
    const amountCents = Math.round(Number(form.get("amount") || 0) * 100);
    const saved = await action.run(
      () =>
        call(
          api.POST("/api/companies/{companyId}/budgets/policies", {
            params: { path: { companyId: company.id } },
            body: {
              scopeType,
              scopeId,
              amountCents,
              windowKind,
              warnPercent: Number(form.get("warn") || 80),
              hardStopEnabled: form.get("hardStop") === "on",
            },
          }),
        ),
      (p) => `Budget saved: ${scopeLabel(p, projects)}, ${money(p.amountCents)} (${WINDOW_LABEL[p.windowKind].toLowerCase()}).`,
    );
    if (saved) onSaved();
  };
  return (
    <form class="card stack narrow-form" onSubmit={submit} aria-labelledby="budget-form">
      <h3 id="budget-form">Set a budget</h3>
      <SelectField
        label="Applies to"
        value={scopeType}
        onChange={(e) => {
          const next = e.currentTarget.value as typeof scopeType;
          setScopeType(next);
          setWindowKind(next === "project" ? "lifetime" : "calendar_month_utc");
        }}
        options={[
          { value: "company", label: "The company" },
          { value: "agent", label: "An agent" },
          { value: "project", label: "A project" },
        ]}
      />
      {scopeType === "agent" && <SelectField label="Agent" name="scopeId" required options={agentList.map((a) => ({ value: a.id, label: a.name }))} />}
      {scopeType === "project" && <SelectField label="Project" name="scopeId" required options={projects.map((p) => ({ value: p.id, label: p.name }))} />}
      <SelectField
        label="Window"
        value={windowKind}
        onChange={(e) => setWindowKind(e.currentTarget.value as BudgetWindow)}
        options={BUDGET_WINDOWS.map((w) => ({ value: w, label: WINDOW_LABEL[w] }))}
      />
      <TextField label="Budget (USD)" name="amount" type="number" min={0} step="0.01" inputMode="decimal" required hint="0 means no budget." />
      <TextField label="Warn at (% of the budget)" name="warn" type="number" min={1} max={100} step={1} defaultValue="80" />
      <div class="check">
        <input id="budget-hard-stop" type="checkbox" name="hardStop" defaultChecked />
        <label for="budget-hard-stop">Pause at 100 % until the board decides</label>
      </div>
      <Feedback action={action} />
      <button type="submit" class="primary" disabled={action.busy}>
        Save budget
      </button>
    </form>
  );
}

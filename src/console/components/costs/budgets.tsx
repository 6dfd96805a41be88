// The company's budget policies: each with its window, spend and status, and the form that sets
// (creates or changes) the budget of the company, an agent or a project.
import { useState } from "preact/hooks";
import { agents } from "../../lib/agents";
import { api, call } from "../../lib/api";
import { type BudgetPolicy, scopeLabel, WINDOW_LABEL } from "../../lib/budgets";
import type { Company } from "../../lib/companies";
import { BUDGET_SCOPES, BUDGET_WINDOWS, type BudgetScope, type BudgetWindow, onChosen } from "../../lib/enums";
import { submittedForm } from "../../lib/form";
import { money } from "../../lib/format";
import { Feedback, useAction } from "../action";
import { StatusBadge } from "../badges";
import { SelectField, TextField } from "../fields";

export function PolicyTable({ policies, projects }: { policies: BudgetPolicy[]; projects: Array<{ id: string; name: string }> }) {
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
export function BudgetForm({ company, projects, onSaved }: { company: Company; projects: Array<{ id: string; name: string }>; onSaved: () => void }) {
  const action = useAction();
  const [scopeType, setScopeType] = useState<BudgetScope>("company");
  const [windowKind, setWindowKind] = useState<BudgetWindow>("calendar_month_utc");
  const agentList = agents.value?.list ?? [];
  const submit = async (event: Event) => {
    const { form, text } = submittedForm(event);
    const scopeId = scopeType === "company" ? company.id : text("scopeId");
    const amountCents = Math.round(Number(text("amount") || 0) * 100);
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
              warnPercent: Number(text("warn") || 80),
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
        onChange={onChosen(BUDGET_SCOPES, (next) => {
          setScopeType(next);
          setWindowKind(next === "project" ? "lifetime" : "calendar_month_utc");
        })}
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
        onChange={onChosen(BUDGET_WINDOWS, setWindowKind)}
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

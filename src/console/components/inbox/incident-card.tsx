// A budget incident (the policy's open incidents, grouped): keep the scope paused (or dismiss the
// warning), or raise its budget and resume.
import { useId, useState } from "preact/hooks";
import { agentName } from "../../lib/agents";
import { api, call } from "../../lib/api";
import { ago, money, when } from "../../lib/format";
import type { BudgetIncident, IncidentGroup } from "../../lib/inbox";
import { Feedback } from "../action";
import { type OnDone, useDecision } from "./decision";
import { TextField } from "../fields";

function scopeName(incident: BudgetIncident) {
  if (incident.scopeType === "agent") return `Agent ${agentName(incident.scopeId)}`;
  if (incident.scopeType === "project") return "A project";
  return "The company";
}

export function IncidentCard({ group, companyId, onDone }: { group: IncidentGroup; companyId: string; onDone: OnDone }) {
  const id = useId();
  const incident = group.primary;
  const { action, decide: run } = useDecision(onDone);
  const suggested = Math.ceil((Math.max(incident.observedCents, incident.amountCents) * 1.5) / 100);
  const [amount, setAmount] = useState(String(suggested));
  const name = scopeName(incident);
  const hard = incident.kind === "hard";
  const resolveOne = (incidentId: string, body: { action: "keep_paused" } | { action: "raise_budget_and_resume"; amountCents: number }) =>
    call(api.POST("/api/companies/{companyId}/budget-incidents/{incidentId}/resolve", { params: { path: { companyId, incidentId } }, body }));
  // Keeping it paused settles the warning that came with the stop too; raising the budget settles
  // every open incident of the policy by itself.
  const keepPaused = () =>
    run(
      async () => {
        for (const each of group.incidents) await resolveOne(each.id, { action: "keep_paused" });
      },
      hard ? `${name} stays paused.` : `Warning dismissed: ${name}.`,
    );
  const raise = (event: Event) => {
    event.preventDefault();
    const cents = Math.round(Number(amount) * 100);
    void run(() => resolveOne(incident.id, { action: "raise_budget_and_resume", amountCents: cents }), `Budget raised to ${money(cents)}: ${name} resumed.`);
  };
  return (
    <li class="card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {name}: {hard ? "stopped at its budget" : "near its budget"}
      </h3>
      <p>
        Spent {money(incident.observedCents)} of {money(incident.amountCents)} (
        {incident.windowKind === "lifetime" ? "lifetime" : `month ${incident.windowKey}`}).{" "}
        {hard ? "It is paused until you decide." : "A warning: nothing is paused yet."}
      </p>
      <p class="meta">
        Opened{" "}
        <time dateTime={incident.createdAt} title={when(incident.createdAt)}>
          {ago(incident.createdAt)}
        </time>
      </p>
      <Feedback action={action} />
      <div class="actions">
        <button type="button" disabled={action.busy} onClick={keepPaused}>
          {hard ? "Keep paused" : "Dismiss warning"}
        </button>
      </div>
      <form class="inline-form" onSubmit={raise}>
        <TextField
          label="New budget (USD)"
          type="number"
          min={(incident.observedCents + 1) / 100}
          step="0.01"
          inputMode="decimal"
          required
          value={amount}
          onInput={(e) => setAmount(e.currentTarget.value)}
        />
        <button type="submit" class="primary" disabled={action.busy}>
          {hard ? "Raise budget and resume" : "Raise budget"}
        </button>
      </form>
    </li>
  );
}

// An agent's monthly budget: spend against it, and the form that sets or removes it.
import { useState } from "preact/hooks";
import { api, call, type Schemas } from "../../lib/api";
import { money } from "../../lib/format";
import { Feedback, useAction } from "../action";
import { TextField } from "../fields";

export function BudgetSection({ agent, onSaved }: { agent: Schemas["Agent"]; onSaved: () => void }) {
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

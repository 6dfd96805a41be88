// "Hire agent": name, role, title, reporting line, how it runs (adapter type — from GET /api/adapters,
// with its fields and a working example — and its configuration as JSON), monthly budget and
// capabilities. When the company requires the board's approval for new
// agents the hire waits in "Waiting on you" (the agent is pending approval); otherwise the agent
// page opens.
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso/router";
import { Feedback, useAction } from "../components/action";
import { SelectField, TextArea, TextField } from "../components/fields";
import { agents, loadAgents } from "../lib/agents";
import { api, call, type Schemas } from "../lib/api";
import { companyPath } from "../lib/companies";
import { ADAPTER_TYPES, type AdapterType, onChosen } from "../lib/enums";
import { useResource } from "../lib/resource";
import { AdapterFields } from "../components/agent/adapter-fields";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";
import { submittedForm } from "../lib/form";

type Hired = Schemas["AgentHireResult"];

export default function HireAgentPage({ company }: CompanyPageProps) {
  useTitle("Hire agent");
  const { route } = useLocation();
  const action = useAction();
  const [adapterType, setAdapterType] = useState<AdapterType>("http");
  const [pending, setPending] = useState<Hired | null>(null);
  const adapters = useResource(() => call(api.GET("/api/adapters")), []);
  const adapter = adapters.data?.find((a) => a.type === adapterType);

  const submit = async (event: Event) => {
    const { text } = submittedForm(event);
    let adapterConfig: Record<string, unknown> = {};
    if (text("config")) {
      try {
        adapterConfig = JSON.parse(text("config"));
      } catch (err) {
        action.fail(`Adapter configuration is not valid JSON: ${(err as Error).message}`);
        return;
      }
      if (typeof adapterConfig !== "object" || adapterConfig === null || Array.isArray(adapterConfig)) {
        action.fail("Adapter configuration must be a JSON object.");
        return;
      }
    }
    const hired = await action.run(() =>
      call(
        api.POST("/api/companies/{companyId}/agent-hires", {
          params: { path: { companyId: company.id } },
          body: {
            name: text("name"),
            role: text("role") || undefined,
            title: text("title") || null,
            reportsTo: text("reportsTo") || null,
            adapterType,
            adapterConfig,
            budgetMonthlyCents: Math.round(Number(text("budget") || 0) * 100),
            capabilities: text("capabilities") || null,
          },
        }),
      ),
    );
    if (!hired) return;
    void loadAgents(company.id);
    if (hired.approval) setPending(hired);
    else route(companyPath(company, `agents/${hired.agent.id}`));
  };

  if (pending) {
    return (
      <>
        <h1 tabIndex={-1}>Hire agent</h1>
        <div class="card" role="status">
          <h2>{pending.agent.name} is waiting for the board's approval</h2>
          <p>This company asks the board to approve every new agent. The hire is in “Waiting on you”; the agent starts once it is approved.</p>
          <div class="actions">
            <a class="button primary" href={companyPath(company, "inbox")}>
              Open the inbox
            </a>
            <a href={companyPath(company, `agents/${pending.agent.id}`)}>Open {pending.agent.name}</a>
          </div>
        </div>
      </>
    );
  }

  return (
    <>
      <h1 tabIndex={-1}>Hire agent</h1>
      <p class="meta">
        {company.requireBoardApprovalForNewAgents
          ? "New agents in this company need the board's approval: the hire waits in “Waiting on you”."
          : "The agent is created at once (idle until it has work)."}
      </p>
      <form class="stack narrow-form" onSubmit={submit}>
        <TextField label="Name" name="name" required maxLength={120} />
        <TextField label="Role" name="role" maxLength={64} placeholder="engineer" hint="ceo, engineer, general, …; default general." />
        <TextField label="Title" name="title" maxLength={200} />
        <SelectField
          label="Reports to"
          name="reportsTo"
          defaultValue=""
          options={[{ value: "", label: "The board" }, ...(agents.value?.list ?? []).map((a) => ({ value: a.id, label: a.name }))]}
        />
        <SelectField
          label="Adapter"
          name="adapterType"
          value={adapterType}
          onChange={onChosen(ADAPTER_TYPES, setAdapterType)}
          options={ADAPTER_TYPES.map((t) => {
            const info = adapters.data?.find((a) => a.type === t);
            return { value: t, label: info ? `${info.label} (${t})` : t };
          })}
        />
        <TextArea
          label="Adapter configuration (JSON)"
          name="config"
          rows={4}
          class="mono"
          placeholder={adapter ? JSON.stringify(adapter.example) : "{}"}
          hint={
            <>
              What the adapter needs (see <a href={`/api/llms/agent-configuration/${adapterType}.txt`}>its configuration guide</a>). Secret values (an API key,
              secret-looking names under env) become company secrets, kept only as references.
            </>
          }
        />
        {adapter && <AdapterFields adapter={adapter} />}
        <TextField label="Monthly budget (USD)" name="budget" type="number" min={0} step="0.01" inputMode="decimal" hint="0 or empty: no agent budget." />
        <TextArea label="Capabilities" name="capabilities" rows={3} hint="What it is good at, for the agents that delegate to it." />
        <Feedback action={action} />
        <div class="actions">
          <button type="submit" class="primary" disabled={action.busy}>
            Hire agent
          </button>
          <a href={companyPath(company, "agents")}>Cancel</a>
        </div>
      </form>
    </>
  );
}

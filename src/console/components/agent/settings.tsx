// An agent's settings, edited by the board: name, title, role, reporting line, capabilities, how it
// runs (components/agent/adapter-settings.tsx) and its heartbeat with its run limits. Save sends
// what changed (lib/agent-settings.ts); a value the API refuses shows the API's message next to its
// field (the error's `details` name it), and the alert under the form says it too.
import { useEffect, useState } from "preact/hooks";
import { agents } from "../../lib/agents";
import {
  type AdapterInfo,
  type Agent,
  adapterDraft,
  HEARTBEAT_LIMITS,
  type HeartbeatLimit,
  type SettingsDraft,
  settingsDraft,
  settingsPatch,
} from "../../lib/agent-settings";
import { ApiError, api, call } from "../../lib/api";
import type { Company } from "../../lib/companies";
import { type FieldErrors, fieldErrors, placeErrors } from "../../lib/field-errors";
import { managerChoices } from "../../lib/org-chart";
import { useResource } from "../../lib/resource";
import { Submit, useAction } from "../action";
import { CheckField, SelectField, TextArea, TextField } from "../fields";
import { Async } from "../states";
import { AdapterSettings } from "./adapter-settings";

// The ranges the run engine honours (src/domain/runs/dispatch.ts clamps to them; the schema caps the interval).
const HEARTBEAT_LABELS: Record<HeartbeatLimit, { label: string; hint: string; max: number }> = {
  intervalSec: { label: "Heartbeat interval (seconds)", hint: "How often the timer wakes it, when the heartbeat is on.", max: 604_800 },
  maxConcurrentRuns: { label: "Max concurrent runs", hint: "Runs at once, 1 to 50; empty: 1.", max: 50 },
  maxRunsPerHour: { label: "Max runs per hour", hint: "Runs started in an hour, wake-ups included, 1 to 10000; empty: 30.", max: 10_000 },
};

export function SettingsSection({ agent, company, onSaved }: { agent: Agent; company: Company; onSaved: () => void }) {
  const adapters = useResource(() => call(api.GET("/api/adapters")), []);
  const secrets = useResource(() => call(api.GET("/api/companies/{companyId}/secrets", { params: { path: { companyId: company.id } } })), [company.id]);
  return (
    <section aria-labelledby="agent-settings">
      <h2 id="agent-settings">Settings</h2>
      {agent.configRedacted ? (
        <p class="empty">You may not change this agent's settings.</p>
      ) : (
        <Async resource={adapters} what="the adapters">
          {(list) => <SettingsForm key={agent.id} agent={agent} company={company} adapters={list} secrets={secrets.data ?? []} onSaved={onSaved} />}
        </Async>
      )}
    </section>
  );
}

function SettingsForm({
  agent,
  company,
  adapters,
  secrets,
  onSaved,
}: {
  agent: Agent;
  company: Company;
  adapters: AdapterInfo[];
  secrets: Array<{ id: string; name: string }>;
  onSaved: () => void;
}) {
  const action = useAction();
  const adapterOf = (type: string) => adapters.find((a) => a.type === type);
  const [initial, setInitial] = useState(() => settingsDraft(agent, adapterOf(agent.adapterType)));
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const edited = JSON.stringify(draft) !== JSON.stringify(initial);
  // Changed elsewhere (another tab, the CLI) while nothing is being edited here: show the new values.
  useEffect(() => {
    if (edited) return;
    const fresh = settingsDraft(agent, adapterOf(agent.adapterType));
    setInitial(fresh);
    setDraft(fresh);
  }, [agent.updatedAt]);

  const set = (change: Partial<SettingsDraft>) => setDraft((d) => ({ ...d, ...change }));
  const chooseType = (type: string) =>
    set({ adapterType: type, adapter: type === initial.adapterType ? initial.adapter : adapterDraft(adapterOf(type)?.fields ?? [], {}) });
  const known = [
    "name",
    "title",
    "role",
    "reportsTo",
    "capabilities",
    "adapterType",
    ...(adapterOf(draft.adapterType)?.fields ?? []).map((f) => `adapterConfig.${f.name}`),
    "runtimeConfig.heartbeat.enabled",
    ...HEARTBEAT_LIMITS.map((k) => `runtimeConfig.heartbeat.${k}`),
  ];

  const save = async (event: Event) => {
    event.preventDefault();
    const { body, errors: refused } = settingsPatch(agent, initial, draft, adapterOf(draft.adapterType)?.fields ?? []);
    setErrors(refused);
    if (Object.keys(refused).length > 0) return action.fail("Some values cannot be saved: see the fields marked.");
    if (!body) return action.fail("Nothing has changed.");
    const saved = await action.run(async () => {
      try {
        return await call(api.PATCH("/api/agents/{agentId}", { params: { path: { agentId: agent.id } }, body }));
      } catch (err) {
        if (err instanceof ApiError) {
          const placed = placeErrors(fieldErrors(err.message, err.details), known, {
            under: ["adapterConfig"],
            aliases: { urlKey: "name", adapterConfig: "adapterType" },
          });
          setErrors(placed);
        }
        throw err;
      }
    }, "Settings saved.");
    if (!saved) return;
    const fresh = settingsDraft(saved, adapterOf(saved.adapterType));
    setInitial(fresh);
    setDraft(fresh);
    onSaved();
  };

  const managers = managerChoices(agents.value?.list ?? [], agent.id);
  return (
    <form class="stack narrow-form" onSubmit={save}>
      <fieldset class="stack">
        <legend>Who it is</legend>
        <TextField label="Name" required maxLength={120} value={draft.name} error={errors.name} onInput={(e) => set({ name: e.currentTarget.value })} />
        <TextField label="Title" maxLength={200} value={draft.title} error={errors.title} onInput={(e) => set({ title: e.currentTarget.value })} />
        <TextField
          label="Role"
          maxLength={64}
          value={draft.role}
          error={errors.role}
          hint="ceo, engineer, general, …"
          onInput={(e) => set({ role: e.currentTarget.value })}
        />
        <SelectField
          label="Reports to"
          value={draft.reportsTo}
          error={errors.reportsTo}
          options={[
            { value: "", label: "The board" },
            ...(draft.reportsTo && !managers.some((m) => m.id === draft.reportsTo) ? [{ value: draft.reportsTo, label: "An agent not listed" }] : []),
            ...managers.map((a) => ({ value: a.id, label: a.name })),
          ]}
          onChange={(e) => set({ reportsTo: e.currentTarget.value })}
        />
        <TextArea
          label="Capabilities"
          rows={3}
          value={draft.capabilities}
          error={errors.capabilities}
          hint="What it is good at, for the agents that delegate to it."
          onInput={(e) => set({ capabilities: e.currentTarget.value })}
        />
      </fieldset>
      <AdapterSettings
        adapters={adapters}
        adapterType={draft.adapterType}
        values={draft.adapter}
        secrets={secrets}
        errors={errors}
        company={company}
        onType={chooseType}
        onValue={(name, value) => set({ adapter: { ...draft.adapter, [name]: value } })}
      />
      <fieldset class="stack">
        <legend>Heartbeat and limits</legend>
        <CheckField
          label="Wake it on a timer (heartbeat)"
          checked={draft.heartbeatEnabled}
          error={errors["runtimeConfig.heartbeat.enabled"]}
          onChange={(e) => set({ heartbeatEnabled: e.currentTarget.checked })}
        />
        {HEARTBEAT_LIMITS.map((key) => (
          <TextField
            key={key}
            label={HEARTBEAT_LABELS[key].label}
            type="number"
            step={1}
            min={1}
            max={HEARTBEAT_LABELS[key].max}
            inputMode="numeric"
            hint={HEARTBEAT_LABELS[key].hint}
            value={draft.heartbeat[key]}
            error={errors[`runtimeConfig.heartbeat.${key}`]}
            onInput={(e) => set({ heartbeat: { ...draft.heartbeat, [key]: e.currentTarget.value } })}
          />
        ))}
      </fieldset>
      <Submit action={action} label="Save settings" primary>
        {edited && (
          <button
            type="button"
            onClick={() => {
              setDraft(initial);
              setErrors({});
              action.reset();
            }}
          >
            Undo changes
          </button>
        )}
      </Submit>
    </form>
  );
}

// A routine's triggers: add a schedule, webhook or API trigger; enable, disable, rotate a webhook's
// secret, delete. A webhook's URL and secret are shown once, at creation or rotation.
import { useState } from "preact/hooks";
import { api, call, type Schemas } from "../../lib/api";
import { label, onChosen, oneOf, SIGNING_MODES, TRIGGER_KINDS, type TriggerKind } from "../../lib/enums";
import { ago } from "../../lib/format";
import { submittedForm } from "../../lib/form";
import { triggerText } from "../../lib/routines";
import { Feedback, Submit, useAction } from "../action";
import { StatusBadge } from "../badges";
import { SelectField, TextField } from "../fields";
import { ShownOnce } from "../shown-once";

type Routine = Schemas["RoutineDetail"];
type Trigger = Schemas["RoutineTrigger"];
type Revealed = { webhookUrl?: string; webhookSecret?: string };

export function Triggers({ routine, onChanged }: { routine: Routine; onChanged: () => void }) {
  const action = useAction();
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const [kind, setKind] = useState<TriggerKind>("schedule");
  const add = async (event: Event) => {
    const { element, text } = submittedForm(event);
    const triggerLabel = text("label") || null;
    const body = (): Schemas["CreateRoutineTrigger"] =>
      kind === "schedule"
        ? { kind, label: triggerLabel, cronExpression: text("cron"), timezone: text("timezone") || "UTC" }
        : kind === "webhook"
          ? { kind, label: triggerLabel, signingMode: oneOf(SIGNING_MODES, text("signing")) }
          : { kind, label: triggerLabel };
    const created = await action.run(
      async () => call(api.POST("/api/routines/{routineId}/triggers", { params: { path: { routineId: routine.id } }, body: body() })),
      (t) => `Trigger added: ${triggerText(t)}.`,
    );
    if (created) {
      if (created.webhookSecret) setRevealed(created);
      element.reset();
      onChanged();
    }
  };
  return (
    <section aria-labelledby="routine-triggers">
      <h2 id="routine-triggers">Triggers</h2>
      {routine.triggers.length === 0 ? (
        <p class="empty">No triggers: the routine runs only with “Run now” or the API.</p>
      ) : (
        <ul class="rows">
          {routine.triggers.map((t) => (
            <TriggerRow key={t.id} trigger={t} onChanged={onChanged} onRevealed={setRevealed} />
          ))}
        </ul>
      )}
      {revealed?.webhookSecret && (
        <ShownOnce label="Webhook secret" value={revealed.webhookSecret} onClose={() => setRevealed(null)}>
          {revealed.webhookUrl && (
            <p>
              Send runs to <code class="mono">{revealed.webhookUrl}</code>
            </p>
          )}
        </ShownOnce>
      )}
      <form class="card stack narrow-form" onSubmit={add} aria-labelledby="add-trigger">
        <h3 id="add-trigger">Add a trigger</h3>
        <SelectField
          label="Kind"
          value={kind}
          onChange={onChosen(TRIGGER_KINDS, setKind)}
          options={TRIGGER_KINDS.map((k) => ({ value: k, label: label(k) }))}
        />
        <TextField label="Trigger label" name="label" maxLength={200} hint="Optional." />
        {kind === "schedule" && (
          <>
            <TextField
              label="Cron expression"
              name="cron"
              required
              pattern="\S+(\s+\S+){4}"
              placeholder="0 9 * * 1-5"
              hint="Five fields: minute, hour, day of month, month, day of week."
            />
            <TextField label="Time zone" name="timezone" placeholder="UTC" hint="An IANA name such as Europe/Berlin." />
          </>
        )}
        {kind === "webhook" && (
          <SelectField label="Signature" name="signing" defaultValue="bearer" options={SIGNING_MODES.map((m) => ({ value: m, label: label(m) }))} />
        )}
        <Submit action={action} label="Add trigger" />
      </form>
    </section>
  );
}

function TriggerRow({ trigger: t, onChanged, onRevealed }: { trigger: Trigger; onChanged: () => void; onRevealed: (r: Revealed) => void }) {
  const action = useAction();
  const name = triggerText(t);
  const act = async <T,>(work: () => Promise<T>, done: string) => {
    const result = await action.run(work, done);
    if (result) onChanged();
    return result;
  };
  const path = { triggerId: t.id };
  return (
    <li>
      <span class={t.enabled ? "" : "meta"}>{name}</span> <StatusBadge status={t.enabled ? "enabled" : "disabled"} />
      <span class="meta">
        {t.nextRunAt ? ` · next ${ago(t.nextRunAt)}` : ""}
        {t.lastFiredAt ? ` · fired ${ago(t.lastFiredAt)}` : ""}
      </span>
      <div class="actions">
        <button
          type="button"
          disabled={action.busy}
          aria-label={`${t.enabled ? "Disable" : "Enable"} ${name}`}
          onClick={() =>
            act(
              () => call(api.PATCH("/api/routine-triggers/{triggerId}", { params: { path }, body: { enabled: !t.enabled } })),
              t.enabled ? "Disabled." : "Enabled.",
            )
          }
        >
          {t.enabled ? "Disable" : "Enable"}
        </button>
        {t.kind === "webhook" && (
          <button
            type="button"
            disabled={action.busy}
            aria-label={`Rotate secret of ${name}`}
            onClick={async () => {
              const rotated = await act(() => call(api.POST("/api/routine-triggers/{triggerId}/rotate-secret", { params: { path } })), "Secret rotated.");
              if (rotated) onRevealed(rotated);
            }}
          >
            Rotate secret
          </button>
        )}
        <button
          type="button"
          class="danger"
          disabled={action.busy}
          aria-label={`Delete ${name}`}
          onClick={() => act(() => call(api.DELETE("/api/routine-triggers/{triggerId}", { params: { path } })), "Trigger deleted.")}
        >
          Delete
        </button>
      </div>
      <Feedback action={action} />
    </li>
  );
}

// One routine: what each run asks of its agent, Pause / Resume, "Run now" (with the routine's
// variables), its triggers (add a schedule, webhook or API trigger; enable, disable, delete; a
// webhook's URL and secret are shown once, at creation or rotation) and its run history with the
// issue each run created. Follows routine runs and issue changes.
import { useState } from "preact/hooks";
import { Feedback, useAction } from "../components/action";
import { PriorityBadge, StatusBadge } from "../components/badges";
import { SelectField, TextField } from "../components/fields";
import { Markdown } from "../components/markdown";
import { ShownOnce } from "../components/shown-once";
import { Async } from "../components/states";
import { api, call, type Schemas } from "../lib/api";
import { type Company, companyPath } from "../lib/companies";
import { label, TRIGGER_KINDS, type TriggerKind } from "../lib/enums";
import { ago, when } from "../lib/format";
import type { LiveEvent } from "../lib/live";
import { useResource } from "../lib/resource";
import { triggerText } from "../lib/routines";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";
import { submittedForm } from "../lib/form";

type Routine = Schemas["RoutineDetail"];
type Trigger = Schemas["RoutineTrigger"];
type Revealed = { webhookUrl?: string; webhookSecret?: string };

const SIGNING_MODES = ["bearer", "hmac_sha256", "vendor_hmac", "none"] as const;

export default function RoutinePage({ company, params }: CompanyPageProps) {
  const routineId = params.routineId;
  const about = (event: LiveEvent) => event.type.startsWith("issue.") || event.subject?.id === routineId;
  const routine = useResource(() => call(api.GET("/api/routines/{routineId}", { params: { path: { routineId } } })), [routineId], {
    types: ["routine.*", "issue.*"],
    when: about,
  });
  const runs = useResource(() => call(api.GET("/api/routines/{routineId}/runs", { params: { path: { routineId }, query: { limit: 50 } } })), [routineId], {
    types: ["routine.*", "issue.*"],
    when: about,
  });
  useTitle(routine.data?.title ?? "Routine");
  const refresh = () => {
    void routine.reload();
    void runs.reload();
  };
  return (
    <Async resource={routine} what="the routine">
      {(r) => (
        <article>
          <p class="meta">
            <a href={companyPath(company, "routines")}>Routines</a>
          </p>
          <h1 tabIndex={-1}>{r.title}</h1>
          <p class="meta">
            <StatusBadge status={r.status} /> <PriorityBadge priority={r.priority} /> · assigned to{" "}
            {r.assignee ? <a href={companyPath(company, `agents/${r.assignee.id}`)}>{r.assignee.name}</a> : "nobody"}
            {r.project ? (
              <>
                {" "}
                · project <a href={companyPath(company, `projects/${r.project.id}`)}>{r.project.name}</a>
              </>
            ) : null}
            {r.lastTriggeredAt ? ` · last fired ${ago(r.lastTriggeredAt)}` : " · never fired"}
          </p>
          <RoutineControls routine={r} company={company} onChanged={refresh} />
          {r.activeExecutionIssue && (
            <p>
              Working on{" "}
              <a href={companyPath(company, `issues/${r.activeExecutionIssue.identifier}`)}>
                <span class="identifier">{r.activeExecutionIssue.identifier}</span> {r.activeExecutionIssue.title}
              </a>
            </p>
          )}
          <section aria-labelledby="routine-description">
            <h2 id="routine-description">Each run asks</h2>
            {r.description ? <Markdown source={r.description} /> : <p class="empty">No description: each run's issue has the title only.</p>}
            <p class="meta">
              Concurrency: {label(r.concurrencyPolicy)} · missed slots: {label(r.catchUpPolicy)}
            </p>
          </section>
          <Triggers routine={r} onChanged={refresh} />
          <section aria-labelledby="routine-runs">
            <h2 id="routine-runs">Run history</h2>
            <Async resource={runs} what="runs" empty="No runs yet. “Run now” starts one.">
              {(list) => (
                <ul class="rows routine-runs">
                  {list
                    .filter((run) => run !== null)
                    .map((run) => (
                      <li key={run.id}>
                        <StatusBadge status={run.status} /> {label(run.source)}{" "}
                        <time class="meta" dateTime={run.createdAt} title={when(run.createdAt)}>
                          {ago(run.createdAt)}
                        </time>
                        {run.linkedIssueId && (
                          <>
                            {" "}
                            · <a href={companyPath(company, `issues/${run.linkedIssueId}`)}>its issue</a>
                          </>
                        )}
                        {run.failureReason && <span class="meta"> · {run.failureReason}</span>}
                        {run.coalescedIntoRunId && <span class="meta"> · joined a run already going</span>}
                      </li>
                    ))}
                </ul>
              )}
            </Async>
          </section>
        </article>
      )}
    </Async>
  );
}

function RoutineControls({ routine, company, onChanged }: { routine: Routine; company: Company; onChanged: () => void }) {
  const action = useAction();
  const [values, setValues] = useState<Record<string, string>>({});
  const active = routine.status === "active";
  const setStatus = async (status: "active" | "paused") => {
    const saved = await action.run(
      () => call(api.PATCH("/api/routines/{routineId}", { params: { path: { routineId: routine.id } }, body: { status } })),
      status === "active" ? "Routine resumed." : "Routine paused.",
    );
    if (saved) onChanged();
  };
  const runNow = async (event: Event) => {
    event.preventDefault();
    const variables: Record<string, string | number | boolean> = {};
    for (const v of routine.variables) {
      const raw = values[v.name];
      if (raw === undefined || raw === "") continue;
      variables[v.name] = v.type === "number" ? Number(raw) : v.type === "boolean" ? raw === "true" : raw;
    }
    const run = await action.run(
      () =>
        call(
          api.POST("/api/routines/{routineId}/run", {
            params: { path: { routineId: routine.id } },
            body: { source: "manual", ...(Object.keys(variables).length ? { variables } : {}) },
          }),
        ),
      (r) => `Run started: ${label(r?.status ?? "received")}.`,
    );
    if (run) onChanged();
  };
  return (
    <section class="controls" aria-label="Routine controls">
      <form class="stack" onSubmit={runNow}>
        {routine.variables.map((v) =>
          v.type === "boolean" ? (
            <SelectField
              key={v.name}
              label={v.label ?? v.name}
              value={values[v.name] ?? String(v.defaultValue ?? "false")}
              options={[
                { value: "true", label: "Yes" },
                { value: "false", label: "No" },
              ]}
              onChange={(e) => setValues({ ...values, [v.name]: e.currentTarget.value })}
            />
          ) : (
            <TextField
              key={v.name}
              label={v.label ?? v.name}
              inputMode={v.type === "number" ? "decimal" : undefined}
              required={Boolean(v.required) && (v.defaultValue === null || v.defaultValue === undefined)}
              placeholder={v.defaultValue === null || v.defaultValue === undefined ? "" : String(v.defaultValue)}
              value={values[v.name] ?? ""}
              onInput={(e) => setValues({ ...values, [v.name]: e.currentTarget.value })}
            />
          ),
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={action.busy || !active}>
            Run now
          </button>
          {active ? (
            <button type="button" disabled={action.busy} onClick={() => setStatus("paused")}>
              Pause
            </button>
          ) : routine.status === "paused" ? (
            <button type="button" disabled={action.busy || !routine.assigneeAgentId} onClick={() => setStatus("active")}>
              Resume
            </button>
          ) : null}
        </div>
      </form>
      {!active && <p class="meta">A {routine.status} routine does not run: resume it first.</p>}
      <Feedback action={action} />
    </section>
  );
}

function Triggers({ routine, onChanged }: { routine: Routine; onChanged: () => void }) {
  const action = useAction();
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const [kind, setKind] = useState<TriggerKind>("schedule");
  const add = async (event: Event) => {
    const { text } = submittedForm(event);
    const triggerLabel = text("label") || null;
    const body: Schemas["CreateRoutineTrigger"] =
      kind === "schedule"
        ? { kind, label: triggerLabel, cronExpression: text("cron"), timezone: text("timezone") || "UTC" }
        : kind === "webhook"
          ? { kind, label: triggerLabel, signingMode: text("signing") as (typeof SIGNING_MODES)[number] }
          : { kind, label: triggerLabel };
    const created = await action.run(
      () => call(api.POST("/api/routines/{routineId}/triggers", { params: { path: { routineId: routine.id } }, body })),
      (t) => `Trigger added: ${triggerText(t)}.`,
    );
    if (created) {
      if (created.webhookSecret) setRevealed(created);
      (event.target as HTMLFormElement).reset();
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
          onChange={(e) => setKind(e.currentTarget.value as TriggerKind)}
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
        <Feedback action={action} />
        <button type="submit" disabled={action.busy}>
          Add trigger
        </button>
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

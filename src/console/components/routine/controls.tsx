// A routine's controls: "Run now" (with the routine's variables), Pause and Resume.
import { useState } from "preact/hooks";
import { api, call, type Schemas } from "../../lib/api";
import { label } from "../../lib/enums";
import { Feedback, useAction } from "../action";
import { SelectField, TextField } from "../fields";

export function RoutineControls({ routine, onChanged }: { routine: Schemas["RoutineDetail"]; onChanged: () => void }) {
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

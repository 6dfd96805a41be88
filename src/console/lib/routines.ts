// A routine trigger in a line: its label and kind, with the cron expression and time zone of a
// schedule or the signature a webhook expects.
import type { Schemas } from "./api";
import { label } from "./enums";

type TriggerLike = Pick<Schemas["RoutineTriggerSummary"], "kind" | "label" | "cronExpression" | "timezone" | "signingMode">;

export function triggerText(t: TriggerLike): string {
  const name = t.label ? `${t.label}: ` : "";
  if (t.kind === "schedule") return `${name}schedule ${t.cronExpression ?? ""} (${t.timezone ?? "UTC"})`;
  if (t.kind === "webhook") return `${name}webhook (${label(t.signingMode ?? "bearer")} signature)`;
  return `${name}API`;
}

// How long the run machinery waits: the alarm delays and the runner grace and acknowledgement
// periods, each overridable from the environment (tests set them so alarms fire only by hand; the
// variables are declared on Env in src/env.ts).

/** A dispatch that does not finish (object evicted, a write failed) runs again this long after it began (plus the dispatch delay). */
export const DISPATCH_RESUME_MS = 30_000;
/** How long a runner has to acknowledge run.start (run.started) before it is sent again or handed to another runner. */
export const RUN_START_ACK_MS = 10_000;
const RUNNER_GRACE_DEFAULT_MS = 30_000;

export interface RuntimeSettings {
  /** Extra delay before an alarm the service sets itself (tests set it far ahead and fire alarms by hand). */
  dispatchDelayMs: number;
  /** How long a disconnected runner's runs wait for it (or another runner) to reclaim them. */
  runnerGraceMs: number;
  /** How long a runner has to acknowledge run.start. */
  runStartAckMs: number;
}

const milliseconds = (value: string | undefined, fallback: number) => {
  const configured = Number(value);
  return value !== undefined && value !== "" && Number.isFinite(configured) && configured >= 0 ? configured : fallback;
};

/** The run machinery's timings in this environment. */
export const runtimeSettings = (env: Pick<Env, "DISPATCH_DELAY_MS" | "RUNNER_GRACE_MS" | "RUNNER_ACK_MS">): RuntimeSettings => ({
  dispatchDelayMs: milliseconds(env.DISPATCH_DELAY_MS, 0),
  runnerGraceMs: milliseconds(env.RUNNER_GRACE_MS, RUNNER_GRACE_DEFAULT_MS),
  runStartAckMs: milliseconds(env.RUNNER_ACK_MS, RUN_START_ACK_MS),
});

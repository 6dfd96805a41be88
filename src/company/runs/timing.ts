// How long the run machinery waits: the alarm delays and the runner grace and acknowledgement
// periods, each overridable from the environment (tests set them so alarms fire only by hand).

/** Extra delay before an alarm the service sets itself (tests set it far ahead and fire alarms by hand). */
export const dispatchDelayMs = (env: Env) => Number((env as unknown as Record<string, unknown>).DISPATCH_DELAY_MS ?? 0) || 0;

/** A dispatch that does not finish (object evicted, a write failed) runs again this long after it began (plus DISPATCH_DELAY_MS). */
export const DISPATCH_RESUME_MS = 30_000;

/** How long a disconnected runner's runs wait for it (or another runner) to reclaim them. */
export const runnerGraceMs = (env: Env) => {
  const configured = Number((env as unknown as Record<string, unknown>).RUNNER_GRACE_MS);
  return Number.isFinite(configured) && configured >= 0 ? configured : 30_000;
};

/** How long a runner has to acknowledge run.start (run.started) before it is sent again or handed to another runner. */
export const RUN_START_ACK_MS = 10_000;
export const runStartAckMs = (env: Env) => {
  const configured = Number((env as unknown as Record<string, unknown>).RUNNER_ACK_MS);
  return Number.isFinite(configured) && configured >= 0 ? configured : RUN_START_ACK_MS;
};

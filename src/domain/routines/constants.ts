// Routine limits the domain enforces and the API documents (src/schemas/routines.ts).

/** A webhook trigger's replay window (seconds): signed requests older than this are refused. */
export const REPLAY_WINDOW = { min: 30, max: 86_400, default: 300 } as const;
export const ROUTINE_RUNS_LIMIT = { default: 50, max: 200 } as const;
/** Idempotency keys of schedule slots (`schedule:<trigger>:<slot>`); callers' own keys may not start with it. */
export const SCHEDULE_KEY_PREFIX = "schedule:";

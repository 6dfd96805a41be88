/** Extra delay before an alarm the service sets itself (tests set it far ahead and fire alarms by hand). */
export const dispatchDelayMs = (env: Env) => Number((env as unknown as Record<string, unknown>).DISPATCH_DELAY_MS ?? 0) || 0;

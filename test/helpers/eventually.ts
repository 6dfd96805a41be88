// Waiting for something that happens in the background (an alarm, a socket, a child process):
// poll `check` until it returns a truthy value (returned) or stops throwing, at most `timeoutMs`.
// No fixed sleeps in tests: they either wait too long or not long enough on a busy machine.
export async function eventually<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 5_000, intervalMs = 20, what = "condition" }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
      last = null;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`eventually: ${what} not met within ${timeoutMs} ms${last ? `: ${last instanceof Error ? last.message : String(last)}` : ""}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Waits until the clock has moved on by at least a millisecond (rows that sort by creation time). */
export async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  await eventually(() => Date.now() > now, { intervalMs: 1, what: "the next millisecond" });
}

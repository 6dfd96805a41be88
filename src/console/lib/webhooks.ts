// A webhook's event filter as typed in a field: types separated by commas or spaces.

/** "issue.*, run.finished" → ["issue.*", "run.finished"]. */
export const eventList = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((e) => e.trim())
    .filter(Boolean);

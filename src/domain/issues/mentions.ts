// `@AgentName` mentions: case-insensitive exact agent names, multi-word names included.
// At each `@`, the longest agent name that matches (and ends at a word boundary) wins.

const WORD_CHAR = /[\p{L}\p{N}_-]/u;

export function mentionedNames<T extends { name: string }>(text: string, candidates: T[]): T[] {
  if (!text.includes("@") || !candidates.length) return [];
  const lower = text.toLowerCase();
  const sorted = [...candidates].sort((a, b) => b.name.length - a.name.length);
  const found = new Map<T, true>();
  for (let at = lower.indexOf("@"); at !== -1; at = lower.indexOf("@", at + 1)) {
    // `a@b` is an e-mail address, not a mention.
    if (at > 0 && WORD_CHAR.test(lower[at - 1])) continue;
    for (const candidate of sorted) {
      const name = candidate.name.toLowerCase();
      if (!name || !lower.startsWith(name, at + 1)) continue;
      const next = lower[at + 1 + name.length];
      if (next !== undefined && WORD_CHAR.test(next)) continue;
      found.set(candidate, true);
      break;
    }
  }
  return [...found.keys()];
}

/** Whole-word, case-insensitive occurrence of `needle` in `text`. */
export function mentionsWord(text: string, needle: string): boolean {
  if (!needle) return false;
  const lower = text.toLowerCase();
  const word = needle.toLowerCase();
  for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + 1)) {
    const before = at > 0 ? lower[at - 1] : undefined;
    const after = lower[at + word.length];
    if ((before === undefined || !WORD_CHAR.test(before)) && (after === undefined || !WORD_CHAR.test(after))) return true;
  }
  return false;
}

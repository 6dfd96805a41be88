// Issue prefixes: short, unique among all companies, derived from the company name. The first free
// of: the name's first four letters (ACME), its words' initials (AC), its first three letters with
// a later letter (ACMC, ACMO, …), then its first three letters with a number (ACM2, ACM3, …), never
// longer than ISSUE_PREFIX_MAX_LENGTH however many companies share a name. Prefixes allocated
// before this rule (ABC, ABCA, ABCAA, …) are kept as they are.

export const ISSUE_PREFIX_MAX_LENGTH = 10;
/** An issue identifier: the company's prefix (a letter, then letters or digits), `-`, the issue number. */
export const ISSUE_IDENTIFIER_PATTERN = /^[A-Za-z][A-Za-z0-9]*-\d+$/;

const FALLBACK = "CMP";

/** The name's words in upper-case A–Z letters, accents dropped ("Café Noir" → CAFE, NOIR). */
function wordsOf(name: string): string[] {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase()
    .split(/[^A-Z]+/)
    .filter(Boolean);
}

export interface PrefixCandidates {
  /** Letter combinations to try first, best first (each at most four letters). */
  letters: string[];
  /** The stem numbered prefixes start with (`${stem}2`, `${stem}3`, …). */
  stem: string;
}

/** What to try for `name`: its letter combinations, then its stem with a number. */
export function issuePrefixCandidates(name: string): PrefixCandidates {
  const words = wordsOf(name);
  const letters = words.join("");
  if (!letters) return { letters: [FALLBACK], stem: FALLBACK };
  const stem = letters.slice(0, 3);
  const initials = words
    .map((w) => w[0])
    .join("")
    .slice(0, 4);
  const combos = [letters.slice(0, 4), ...(initials.length >= 2 ? [initials] : []), ...[...letters.slice(4)].map((later) => stem + later)];
  return { letters: [...new Set(combos)], stem };
}

/** The first candidate not in `taken` (upper-case prefixes), at most ISSUE_PREFIX_MAX_LENGTH characters. */
export function firstFreePrefix(candidates: PrefixCandidates, taken: Set<string>): string {
  const free = candidates.letters.find((c) => !taken.has(c));
  if (free) return free;
  for (let n = 2; ; n++) {
    const numbered = `${candidates.stem}${n}`;
    if (numbered.length > ISSUE_PREFIX_MAX_LENGTH) break;
    if (!taken.has(numbered)) return numbered;
  }
  throw new Error(`every issue prefix for ${candidates.stem} is taken`);
}

// How the company search matches and ranks one entity, and the snippet it shows. Matching is the
// issue list's: case-insensitive for ASCII letters (SQLite's lower() and LIKE fold nothing else),
// every other character literal. Tiers (lower is better): 0 the name equals q (an issue's identifier
// or title), 1 the name starts with q, 2 the name contains q, 3 another field contains q.
import { sql, type SQL } from "drizzle-orm";

export type MatchTier = 0 | 1 | 2 | 3;

/** q as SQLite's lower() leaves it: ASCII letters folded, nothing else. */
export const asciiLower = (text: string) => text.replace(/[A-Z]+/g, (s) => s.toLowerCase());

/** SQL: the row's tier for `needle` (q through lower()), NULL when it does not match. */
export function tierSql(name: SQL, others: SQL[], needle: SQL): SQL<MatchTier | null> {
  const has = (column: SQL) => sql`instr(lower(coalesce(${column}, '')), ${needle})`;
  return sql<MatchTier | null>`CASE
    WHEN lower(${name}) = ${needle} THEN 0
    WHEN ${has(name)} = 1 THEN 1
    WHEN ${has(name)} > 0 THEN 2
    ${
      others.length
        ? sql`WHEN ${sql.join(
            others.map((o) => sql`${has(o)} > 0`),
            sql` OR `,
          )} THEN 3`
        : sql``
    }
  END`;
}

/** The tier of a row already known to match (an issue from the issue list's search, a page from the wiki's). */
export function tierOf(names: Array<string | null>, q: string): MatchTier {
  const needle = asciiLower(q);
  const folded = names.map((n) => asciiLower(n ?? ""));
  if (folded.some((n) => n === needle)) return 0;
  if (folded.some((n) => n.startsWith(needle))) return 1;
  if (folded.some((n) => n.includes(needle))) return 2;
  return 3;
}

/** Characters of a snippet, and how many of them come before the match. */
const SNIPPET_LENGTH = 180;
const SNIPPET_BEFORE = 60;

/**
 * SQL: the window of `column` a snippet shows (around the first match, else its start), with where it
 * starts and the field's length, so a long body never leaves the database whole.
 */
export function excerptSql(column: SQL, needle: SQL) {
  const from = sql`max(1, instr(lower(coalesce(${column}, '')), ${needle}) - ${sql.raw(String(SNIPPET_BEFORE))})`;
  return {
    excerpt: sql<string>`substr(coalesce(${column}, ''), ${from}, ${sql.raw(String(SNIPPET_LENGTH))})`,
    excerptFrom: sql<number>`${from}`,
    fieldLength: sql<number>`length(coalesce(${column}, ''))`,
  };
}

export interface Excerpt {
  excerpt: string;
  excerptFrom: number;
  fieldLength: number;
}

/** The snippet of a window read with excerptSql: whitespace collapsed, "…" where the field goes on. */
export function snippetOfExcerpt(e: Excerpt): string {
  const text = e.excerpt.replace(/\s+/g, " ").trim();
  if (!text) return "";
  return `${e.excerptFrom > 1 ? "…" : ""}${text}${e.excerptFrom - 1 + SNIPPET_LENGTH < e.fieldLength ? "…" : ""}`;
}

/** The same window, cut in code from a field already read (the issue list's rows). */
export function snippetOf(text: string | null, q: string): string {
  if (!text) return "";
  const at = asciiLower(text).indexOf(asciiLower(q));
  const from = Math.max(0, at - SNIPPET_BEFORE);
  return snippetOfExcerpt({ excerpt: text.slice(from, from + SNIPPET_LENGTH), excerptFrom: from + 1, fieldLength: text.length });
}

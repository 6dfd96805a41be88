// Issue search (`q`): the company's own trigram postings (migration 0019) and the first page of the
// documented ranking, computed without ranking every match.
//
// Rank (lower is better), ties by priority, latest activity (updatedAt), id:
//   0 title starts with q · 1 title contains q · 2 identifier starts with q · 3 identifier contains q
//   4 a comment contains q · 5 description contains q — issues matching none are left out.
// Matching is case-insensitive for ASCII letters (as SQLite's LIKE); %, _ and \ in q are literal.
//
// The index: every 3-byte window of a field's lowercased text is the term
// <company id without dashes><field letter><6 hex digits>, so a term's postings hold one company's
// rows of one field, and a search reads its own company's postings only. Rows holding every window
// of q are a superset of the rows containing q (the index keeps no positions); the rank, computed
// on the text itself, decides.
//
// The page (one statement), for each field (title, identifier, comments, description):
//   · its hits, at most `hitsCap` issues, are counted;
//   · a field with fewer than `few` hits: those hits are ranked outright (`few`);
//   · otherwise, for each of the field's tiers, the company's issues are walked in the tie order
//     (the priority index) keeping the first `limit` of that tier, so a common term stops after a
//     page's worth instead of ranking every match:
//       - fewer than `hitsCap` hits: the walk tests membership in the hits from the index alone and
//         fetches only hits (`member_<tier>`);
//       - a dense field (`hitsCap` or more hits): the first `walk` issues are fetched and ranked
//         (`walk_<tier>`); only if that finds fewer than `limit` does the member walk run over all
//         the field's hits;
//       - a field's second tier is skipped when its first tier alone filled the page.
// Every part yields the exact first rows of its tier in the tie order (or all of them), so the first
// `limit` of their union in (rank, tie order) is the first page of the full ranking. Costs: a
// selective term pays for its hits; a common one for about `limit` ÷ its density rows; the worst
// case (many hits, none near the top of the priority order, or filters that leave few) stays within
// this company's own hits and index.
import { sql, type SQL } from "drizzle-orm";
import { schema } from "../../db/client";
import { ISSUE_ID, PRIORITY_RANK } from "./order";

const t = schema.issues;

export interface SearchTuning {
  /** Hits counted per field; a field with this many is dense. */
  hitsCap: number;
  /** Below this many hits a field's hits are ranked outright. */
  few: number;
  /** Issues a dense field's walk fetches before it falls back to the member walk. */
  walk: (limit: number) => number;
}
export const SEARCH_TUNING: SearchTuning = {
  hitsCap: 10_000,
  few: 2_000,
  walk: (limit) => Math.min(Math.max(20 * limit, 1_000), 10_000),
};

/** Index fields: title, identifier, comments, description (migration 0019). */
export type SearchField = "t" | "i" | "c" | "d";
const FIELDS: SearchField[] = ["t", "i", "c", "d"];
/** The field each rank tier is about. */
const TIER_FIELD: SearchField[] = ["t", "t", "i", "i", "c", "d"];

const encoder = new TextEncoder();

/** q's bytes as SQLite's lower() leaves them (ASCII letters folded, like LIKE). */
const searchBytes = (q: string) => encoder.encode(q.replace(/[A-Z]+/g, (s) => s.toLowerCase()));

/** The index is used when q has at least one 3-byte window; shorter q scans the company. */
export const searchable = (q: string) => searchBytes(q).length >= 3;

/** The index terms of q's windows in one field, in order (the migration's triggers write the same). */
export function searchTerms(companyId: string, field: SearchField, q: string): string[] {
  const prefix = companyId.replaceAll("-", "") + field;
  const bytes = searchBytes(q);
  const terms: string[] = [];
  for (let i = 0; i + 3 <= bytes.length; i++) {
    let hex = "";
    for (const b of bytes.subarray(i, i + 3)) hex += b.toString(16).toUpperCase().padStart(2, "0");
    terms.push(prefix + hex);
  }
  return terms;
}

/** FTS5 query: rows of the field holding every window of q (each term once; terms are barewords). */
export const searchQuery = (companyId: string, field: SearchField, q: string) => [...new Set(searchTerms(companyId, field, q))].join(" ");

/**
 * The rank of the issue row in scope (`issues`), NULL when it does not match, for a needle that is
 * q passed through lower(). instr() on lower()ed text is LIKE's matching — ASCII letters folded,
 * every other character (%, _ and \ too) literal — without LIKE's 50-byte pattern limit in D1.
 */
function rankCase(needle: SQL): SQL {
  const has = (column: SQL) => sql`instr(lower(${column}), ${needle})`;
  return sql`CASE
    WHEN ${has(sql`${t.title}`)} = 1 THEN 0
    WHEN ${has(sql`${t.title}`)} > 0 THEN 1
    WHEN ${has(sql`${t.identifier}`)} = 1 THEN 2
    WHEN ${has(sql`${t.identifier}`)} > 0 THEN 3
    WHEN EXISTS (SELECT 1 FROM issue_comments c WHERE c.issue_id = ${ISSUE_ID} AND ${has(sql`c.body`)} > 0) THEN 4
    WHEN ${has(sql`${t.description}`)} > 0 THEN 5
  END`;
}

/** The rank of the issue row in scope (`issues`), NULL when it does not match (q bound as a parameter). */
export const rankExpression = (q: string): SQL => rankCase(sql`lower(${q})`);

/** Issue rowids whose field holds every term of the query (comments: the comment's issue). */
function hitsOf(field: SearchField, query: SQL): SQL {
  if (field === "c") {
    return sql`SELECT ci.rowid AS r FROM issue_comment_search s JOIN issue_comments cc ON cc.rowid = s.rowid JOIN issues ci ON ci.id = cc.issue_id
      WHERE issue_comment_search MATCH ${query}`;
  }
  return sql`SELECT rowid >> 2 AS r FROM issue_search WHERE issue_search MATCH ${query}`;
}

/**
 * The first `limit` issues of the ranking for q (q must be `searchable`) among the company's issues
 * that satisfy `conditions` (which must include the company): a subquery of rows (r = the issue's
 * rowid, tier = its rank), to join and order by (tier, priority, latest update, id).
 * q is read from the `params` row wherever it is used, so each value is bound once.
 */
export function searchPage(companyId: string, q: string, conditions: SQL, limit: number, tuning = SEARCH_TUNING): SQL {
  const n = (value: number) => sql.raw(String(Math.trunc(value)));
  const L = n(limit);
  const W = tuning.walk(limit);
  const cap = n(tuning.hitsCap);
  const few = n(tuning.few);
  const tieOrder = sql`${PRIORITY_RANK}, ${t.updatedAt} DESC, ${t.id}`;
  const queries = FIELDS.map((f) => sql`${searchQuery(companyId, f, q)}`);
  const ctes: SQL[] = [
    sql`params(company, t, i, c, d, needle) AS (SELECT ${companyId}, ${sql.join(queries, sql`, `)}, lower(${q}))`,
    // Rank of one issue under the list's conditions (inlined where it is used: one fetch by rowid).
    sql`ranked(r, tier) AS NOT MATERIALIZED (SELECT ${t}.rowid, CASE WHEN ${conditions} THEN ${rankCase(sql`(SELECT needle FROM params)`)} END FROM ${t})`,
  ];
  for (const f of FIELDS) ctes.push(sql`capped_${sql.raw(f)}(r) AS MATERIALIZED (${hitsOf(f, sql`(SELECT ${sql.raw(f)} FROM params)`)} LIMIT ${cap})`);
  ctes.push(
    sql`counts AS MATERIALIZED (SELECT ${sql.join(
      FIELDS.map((f) => sql`(SELECT count(*) FROM capped_${sql.raw(f)}) AS ${sql.raw(f)}`),
      sql`, `,
    )}, (SELECT count(*) FROM (SELECT 1 FROM ${t} WHERE ${t.companyId} = (SELECT company FROM params) LIMIT ${n(W)})) AS size)`,
  );
  // Fields with few hits: their hits ranked outright (the rank computed once per hit).
  ctes.push(
    sql`few_ranked AS MATERIALIZED (
      SELECT ${t}.rowid AS r, (SELECT tier FROM ranked WHERE ranked.r = ${t}.rowid) AS tier, ${PRIORITY_RANK} AS p, ${t.updatedAt} AS u, ${t.id} AS id
      FROM ${t} WHERE ${t}.rowid IN (${sql.join(
        FIELDS.map((f) => sql`SELECT r FROM capped_${sql.raw(f)} WHERE (SELECT ${sql.raw(f)} FROM counts) < ${few}`),
        sql` UNION `,
      )}))`,
    sql`few AS MATERIALIZED (SELECT r, tier FROM few_ranked WHERE tier IS NOT NULL ORDER BY tier, p, u DESC, id LIMIT ${L})`,
  );
  // All of a field's hits: the capped set when complete, else the index again (only when asked).
  for (const f of FIELDS) {
    const x = sql.raw(f);
    ctes.push(
      sql`hits_${x}(r) AS MATERIALIZED (SELECT r FROM capped_${x} WHERE (SELECT ${x} FROM counts) < ${cap}
        UNION ALL ${hitsOf(f, sql`(SELECT CASE WHEN counts.${x} >= ${cap} THEN params.${x} ELSE '""' END FROM counts, params)`)})`,
    );
  }
  const parts: SQL[] = [sql`SELECT r FROM few`];
  for (let k = 0; k < 6; k++) {
    const f = sql.raw(TIER_FIELD[k]);
    const tier = n(k);
    const filled = k === 1 || k === 3 ? sql` AND (SELECT count(*) FROM (SELECT r FROM walk_${n(k - 1)} UNION SELECT r FROM member_${n(k - 1)})) < ${L}` : sql``;
    const open = sql`(SELECT ${f} FROM counts) >= ${few}${filled}`;
    // A guard that fails turns the walk's company into NULL: the index seek then finds nothing.
    const companyIf = (condition: SQL) => sql`(SELECT CASE WHEN ${condition} THEN company END FROM params)`;
    ctes.push(
      sql`walk_${tier}(r) AS MATERIALIZED (SELECT w.r FROM (
        SELECT ${t}.rowid AS r FROM ${t} WHERE ${t.companyId} = ${companyIf(sql`${open} AND (SELECT ${f} FROM counts) >= ${cap}`)}
        ORDER BY ${tieOrder} LIMIT ${n(W)}) w
        WHERE (SELECT tier FROM ranked WHERE ranked.r = w.r) = ${tier} LIMIT ${L})`,
    );
    const memberWalk = sql`(SELECT ${f} FROM counts) < ${cap} OR ((SELECT count(*) FROM walk_${tier}) < ${L} AND (SELECT size FROM counts) >= ${n(W)})`;
    ctes.push(
      sql`member_${tier}(r) AS MATERIALIZED (SELECT ${t}.rowid FROM ${t} INDEXED BY issues_company_priority_idx
        WHERE ${t.companyId} = ${companyIf(sql`${open} AND (${memberWalk})`)}
          AND ${t}.rowid IN (SELECT r FROM hits_${f})
          AND (SELECT tier FROM ranked WHERE ranked.r = ${t}.rowid) = ${tier}
        ORDER BY ${tieOrder} LIMIT ${L})`,
    );
    parts.push(sql`SELECT r FROM walk_${tier}`, sql`SELECT r FROM member_${tier}`);
  }
  // D1 allows five terms per compound SELECT: the thirteen parts go in groups.
  const groups: SQL[] = [];
  for (let i = 0; i < parts.length; i += 4) groups.push(sql`SELECT r FROM (${sql.join(parts.slice(i, i + 4), sql` UNION ALL `)})`);
  return sql`WITH ${sql.join(ctes, sql`,\n`)}
    SELECT page.r AS r, (SELECT tier FROM ranked WHERE ranked.r = page.r) AS tier
    FROM (SELECT DISTINCT r FROM (${sql.join(groups, sql` UNION ALL `)})) page JOIN ${t} ON ${t}.rowid = page.r
    ORDER BY tier, ${tieOrder} LIMIT ${L}`;
}

// Issue search against one local D1 database, below HTTP: the terms the triggers write are the terms
// a query asks for; the list statement reads only its own company's postings and reaches issue rows
// only by the company's index or by rowid (EXPLAIN QUERY PLAN); and its first pages equal the full
// ranking for many terms, filters and limits, with the thresholds at their defaults and tiny (so
// every path — hits ranked outright, member walks, dense walks and their fallback — is taken).
import { env } from "cloudflare:workers";
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb, schema } from "../../src/db/client";
import { listIssueRows, PRIORITY_RANK } from "../../src/domain/issues/list";
import { rankExpression, SEARCH_TUNING, searchPage, searchQuery, searchTerms, type SearchTuning } from "../../src/domain/issues/search";

const raw = env.DB;
const db = createDb(raw);
const t = schema.issues;

async function company(): Promise<{ id: string; prefix: string }> {
  const id = crypto.randomUUID();
  const prefix = `Q${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
  const now = new Date().toISOString();
  await raw
    .prepare("INSERT INTO companies (id, name, status, issue_prefix, issue_counter, created_at, updated_at) VALUES (?, ?, 'active', ?, 0, ?, ?)")
    .bind(id, `Search ${prefix}`, prefix, now, now)
    .run();
  return { id, prefix };
}

interface IssueFields {
  title: string;
  description?: string | null;
  priority?: string;
  status?: string;
  updatedAt?: string;
  hidden?: boolean;
  routine?: boolean;
  comments?: string[];
}

/** The statements writing one issue and its comments. */
function issueStatements(c: { id: string; prefix: string }, n: number, f: IssueFields, id = crypto.randomUUID()): D1PreparedStatement[] {
  const at = f.updatedAt ?? new Date().toISOString();
  return [
    raw
      .prepare(
        `INSERT INTO issues (id, company_id, number, identifier, title, description, status, priority, origin_kind, hidden_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        id,
        c.id,
        n,
        `${c.prefix}-${n}`,
        f.title,
        f.description ?? null,
        f.status ?? "todo",
        f.priority ?? "medium",
        f.routine ? "routine_execution" : "manual",
        f.hidden ? at : null,
        at,
        at,
      ),
    ...(f.comments ?? []).map((body) =>
      raw
        .prepare("INSERT INTO issue_comments (id, company_id, issue_id, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(crypto.randomUUID(), c.id, id, body, at, at),
    ),
  ];
}

async function issue(c: { id: string; prefix: string }, n: number, f: IssueFields): Promise<{ id: string; rowid: number }> {
  const id = crypto.randomUUID();
  await raw.batch(issueStatements(c, n, f, id));
  const row = await raw.prepare("SELECT rowid AS r FROM issues WHERE id = ?").bind(id).first<{ r: number }>();
  return { id, rowid: row!.r };
}

describe("issue search index", () => {
  it("the triggers write, per field, exactly the terms a query asks for", async () => {
    const c = await company();
    const text = 'MiXeD Ünï 🚀 100%_\\ "q"';
    const seeded = await issue(c, 1, { title: text, description: `about ${text}`, comments: [`re: ${text}`] });
    await raw.exec("CREATE VIRTUAL TABLE IF NOT EXISTS issue_search_vocab USING fts5vocab(issue_search, 'instance')");
    await raw.exec("CREATE VIRTUAL TABLE IF NOT EXISTS issue_comment_search_vocab USING fts5vocab(issue_comment_search, 'instance')");
    const written = async (vocab: string, rowid: number) =>
      (await raw.prepare(`SELECT DISTINCT term FROM ${vocab} WHERE doc = ? ORDER BY term`).bind(rowid).all<{ term: string }>()).results.map((r) => r.term);
    // The tokenizer folds ASCII letters: the index holds the terms in lower case.
    const lower = (terms: string[]) => [...new Set(terms.map((term) => term.toLowerCase()))].sort();
    expect(await written("issue_search_vocab", seeded.rowid * 4)).toEqual(lower(searchTerms(c.id, "t", text)));
    expect(await written("issue_search_vocab", seeded.rowid * 4 + 1)).toEqual(lower(searchTerms(c.id, "i", `${c.prefix}-1`)));
    expect(await written("issue_search_vocab", seeded.rowid * 4 + 2)).toEqual(lower(searchTerms(c.id, "d", `about ${text}`)));
    const comment = await raw.prepare("SELECT rowid AS r FROM issue_comments WHERE issue_id = ?").bind(seeded.id).first<{ r: number }>();
    expect(await written("issue_comment_search_vocab", comment!.r)).toEqual(lower(searchTerms(c.id, "c", `re: ${text}`)));
    // Every term starts with the company and the field: another company's terms are other terms.
    for (const term of await written("issue_search_vocab", seeded.rowid * 4 + 2)) expect(term.startsWith(`${c.id.replaceAll("-", "")}d`)).toBe(true);
    // A title update rewrites the title's terms only; a deleted issue leaves none.
    await raw.prepare("UPDATE issues SET title = ? WHERE id = ?").bind("Plain", seeded.id).run();
    expect(await written("issue_search_vocab", seeded.rowid * 4)).toEqual(lower(searchTerms(c.id, "t", "Plain")));
    expect(await written("issue_search_vocab", seeded.rowid * 4 + 2)).toEqual(lower(searchTerms(c.id, "d", `about ${text}`)));
    await raw.prepare("DELETE FROM issues WHERE id = ?").bind(seeded.id).run();
    for (const doc of [0, 1, 2]) expect(await written("issue_search_vocab", seeded.rowid * 4 + doc)).toEqual([]);
    expect(await written("issue_comment_search_vocab", comment!.r)).toEqual([]);
  });

  it("a company's search reads only its own postings and reaches issues only through its index or by rowid", async () => {
    const a = await company();
    const b = await company();
    await issue(a, 1, { title: "shared words here", description: "shared details" });
    await issue(b, 1, { title: "shared words here", description: "shared details" });
    for (const q of ["shared details", "ab"]) {
      const statement = listIssueRows(db, a.id, { q, statuses: ["todo", "done"], limit: 50 }).toSQL();
      const plan = (
        await raw
          .prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
          .bind(...statement.params)
          .all<{ detail: string }>()
      ).results.map((r) => r.detail);
      const tables = plan.filter((d) => /\b(issues|issue_comments|issue_search|issue_comment_search)\b/.test(d));
      expect(tables.length).toBeGreaterThan(0);
      for (const d of tables) {
        if (/issue_search|issue_comment_search/.test(d)) expect(d, d).toMatch(/VIRTUAL TABLE INDEX \d+:M/);
        else expect(d, d).toMatch(/^SEARCH .*(\(company_id=\?|\(rowid=\?\)|\(issue_id=\?)/);
      }
      // The twelve walks (six plain, six member) follow the priority index: no sort of the company's issues.
      if (q !== "ab")
        expect(plan.filter((d) => /^SEARCH issues USING (COVERING )?INDEX issues_company_priority_idx \(company_id=\?\)$/.test(d))).toHaveLength(12);
      // The index is asked for A's terms only.
      const queries = statement.params.filter((p): p is string => typeof p === "string" && /^[0-9a-f]{32}[ticd][0-9A-F]{6}/.test(p));
      const mine = aPrefix(a.id);
      if (q === "ab") expect(queries).toEqual([]);
      else {
        expect(queries).toHaveLength(4);
        // No bound LIMIT around the page (SQLite would prepare the statement twice); q bound once.
        expect(statement.params.filter((p) => typeof p === "number")).toEqual([]);
        expect(statement.params.filter((p) => p === "shared details")).toHaveLength(1);
      }
      for (const p of queries) for (const term of p.split(" ")) expect(term.startsWith(mine)).toBe(true);
      expect(JSON.stringify(statement.params)).not.toContain(b.id.replaceAll("-", ""));
      expect(statement.params.length).toBeLessThanOrEqual(100);
    }
    // Terms: the company, the field, the window's bytes in hex (ASCII letters folded first).
    expect(searchTerms(a.id, "t", "Ab")).toEqual([]);
    expect(searchQuery(a.id, "t", "AbCabc")).toBe(`${aPrefix(a.id)}t616263 ${aPrefix(a.id)}t626361 ${aPrefix(a.id)}t636162`);
    expect(searchTerms(a.id, "d", "é!x")).toEqual([`${aPrefix(a.id)}dC3A921`, `${aPrefix(a.id)}dA92178`]);
  });
});

const aPrefix = (id: string) => id.replaceAll("-", "");

describe("issue search first pages", () => {
  const WORDS = ["apple", "banana", "cherry", "date", "elder", "fig", "grape", "kiwi", "lemon", "mango"];
  const PRIORITIES = ["critical", "high", "medium", "low"];
  const STATUSES = ["todo", "done", "backlog"];

  it("equal the full ranking for many terms, filters and limits, whatever path each field takes", { timeout: 120_000 }, async () => {
    const c = await company();
    const other = await company();
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const word = () => WORDS[rand(WORDS.length)];
    const base = Date.parse("2032-01-01T00:00:00.000Z");
    const statements: D1PreparedStatement[] = [];
    for (let n = 1; n <= 400; n++) {
      // Skewed on purpose: "apple" only in low priority titles, "mango" in most descriptions.
      const low = n > 250;
      statements.push(
        ...issueStatements(c, n, {
          title: `${low && n % 2 ? "Apple " : ""}${word()} ${word()} ${n}`,
          description: rand(10) < 8 ? `${word()} mango ${word()}` : n % 3 ? null : `${word()}`,
          priority: low ? "low" : PRIORITIES[rand(3)],
          status: STATUSES[rand(3)],
          updatedAt: new Date(base - rand(60) * 60_000).toISOString(),
          hidden: rand(25) === 0,
          routine: rand(30) === 0,
          comments: rand(6) === 0 ? [`${word()} said ${word()}`] : [],
        }),
      );
    }
    for (let n = 1; n <= 60; n++)
      statements.push(...issueStatements(other, n, { title: `apple ${word()} ${n}`, description: "mango apple", priority: "critical" }));
    await raw.batch(statements);

    const tunings: SearchTuning[] = [SEARCH_TUNING, { hitsCap: 40, few: 8, walk: () => 25 }, { hitsCap: 12, few: 3, walk: (limit) => limit * 2 }];
    const terms = [
      "apple",
      "mango",
      "Mango ",
      "an",
      "ango",
      "cherry",
      "e",
      "er",
      "elder",
      "it",
      `${c.prefix}-1`,
      `${c.prefix}-2`,
      "said",
      "said kiwi",
      "9",
      "zzz",
      "APPLE ",
    ];
    const conditionsOf = (status?: string): SQL =>
      and(eq(t.companyId, c.id), isNull(t.hiddenAt), sql`${t.originKind} != 'routine_execution'`, status ? eq(t.status, status as "todo") : undefined) as SQL;
    const order = (q: string) => [rankExpression(q), PRIORITY_RANK, sql`${t.updatedAt} DESC`, t.id];
    let checked = 0;
    for (const q of terms) {
      for (const status of [undefined, "done"]) {
        const conditions = conditionsOf(status);
        const full = await db
          .select({ id: t.id })
          .from(t)
          .where(and(conditions, sql`(${rankExpression(q)}) IS NOT NULL`))
          .orderBy(...order(q));
        for (const limit of [1, 7, 500]) {
          const want = full.slice(0, limit).map((r) => r.id);
          if ([...new TextEncoder().encode(q)].length < 3) continue;
          for (const tuning of tunings) {
            const page = await db
              .select({ id: t.id })
              .from(t)
              .where(sql`${t}.rowid IN (SELECT r FROM (${searchPage(c.id, q, conditions, limit, tuning)}))`)
              .orderBy(...order(q))
              .limit(limit);
            expect(
              page.map((r) => r.id),
              `q=${JSON.stringify(q)} status=${status} limit=${limit} tuning=${tuning.hitsCap}/${tuning.few}`,
            ).toEqual(want);
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(12 * 2 * 3 * tunings.length);
  });
});

// Issue search (`q`) over HTTP: each company finds only its own issues, the documented ranking and
// its ties, literal special characters, the index following every write (create, update, comment,
// import, delete), and first pages at scale (common, skewed and filtered terms) equal to the full
// ranking computed here from the rows themselves.
import { describe, expect, it } from "vitest";
import { del, get, patch, post } from "../helpers/api";
import { createCompany, createIssue, insertIssue, testD1 } from "../helpers/fixtures";

const ids = (res: { body: Array<{ id: string }> }) => res.body.map((i) => i.id);
const search = (companyId: string, q: string, extra = "") => get(`/api/companies/${companyId}/issues?q=${encodeURIComponent(q)}${extra}`);

describe("issue search", () => {
  it("two companies with the same words each find only their own issues (title, description, comment)", async () => {
    const a = await createCompany();
    const b = await createCompany();
    const mine = async (companyId: string) => {
      const byTitle = await createIssue(companyId, { title: "Calibrate the quokka sensor" });
      const byDescription = await createIssue(companyId, { title: "Other", description: "the quokka drifts" });
      const byComment = await createIssue(companyId, { title: "Third" });
      await post(`/api/issues/${byComment.id}/comments`, { body: "saw a quokka" });
      return [byTitle.id, byComment.id, byDescription.id];
    };
    const inA = await mine(a.id);
    const inB = await mine(b.id);
    expect(ids(await search(a.id, "quokka"))).toEqual(inA);
    expect(ids(await search(b.id, "quokka"))).toEqual(inB);
    expect(ids(await search(a.id, "QUOKKA SEN"))).toEqual([inA[0]]);
    // B's identifiers are not A's matches either.
    expect(await search(a.id, `${b.issuePrefix}-1`)).toMatchObject({ status: 200, body: [] });
  });

  it("ranks title prefix > title > identifier prefix > identifier > comment > description; ties by priority, latest activity, id", async () => {
    const company = await createCompany();
    const desc = await createIssue(company.id, { title: "Alpha", description: "mentions walrus here", priority: "critical" });
    const comment = await createIssue(company.id, { title: "Beta", priority: "critical" });
    await post(`/api/issues/${comment.id}/comments`, { body: "a WALRUS walked by" });
    const containsLow = await createIssue(company.id, { title: "The walrus crossing", priority: "low" });
    const containsHighOld = await createIssue(company.id, { title: "Big walrus", priority: "high" });
    const containsHighNew = await createIssue(company.id, { title: "Small walrus", priority: "high" });
    const startsLow = await createIssue(company.id, { title: "Walrus stripes", priority: "low" });
    const startsHigh = await createIssue(company.id, { title: "walrus high", priority: "high" });
    await createIssue(company.id, { title: "Unrelated", description: "walrs" });
    const order = [startsHigh.id, startsLow.id, containsHighNew.id, containsHighOld.id, containsLow.id, comment.id, desc.id];
    expect(ids(await search(company.id, "walrus"))).toEqual(order);
    // A comment is activity: the older of the two high "contains" issues moves ahead.
    await post(`/api/issues/${containsHighOld.id}/comments`, { body: "bump" });
    expect(ids(await search(company.id, "walrus"))).toEqual([
      startsHigh.id,
      startsLow.id,
      containsHighOld.id,
      containsHighNew.id,
      containsLow.id,
      comment.id,
      desc.id,
    ]);
    // Same tier, priority and updatedAt: id decides.
    const at = "2030-01-01T00:00:00.000Z";
    const twins = [
      await insertIssue(company.id, { title: "Twin narwhal", updatedAt: at }),
      await insertIssue(company.id, { title: "Twin narwhal", updatedAt: at }),
      await insertIssue(company.id, { title: "Twin narwhal", updatedAt: at }),
    ];
    expect(ids(await search(company.id, "narwhal"))).toEqual(twins.map((t) => t.id).sort());
    // Identifier tiers: "<prefix>-1" starts the identifier of the first issue; "-1" is inside it.
    const first = (await search(company.id, `${company.issuePrefix}-1`)).body[0];
    expect(first.id).toBe(desc.id);
    expect(ids(await search(company.id, "walrus", "&limit=2"))).toEqual(order.slice(0, 2));
    expect(ids(await search(company.id, "walrus", "&status=done"))).toEqual([]);
  });

  it("matches substrings literally and case-insensitively for ASCII: %, _, \\, quotes, non-ASCII, short q", async () => {
    const company = await createCompany();
    const percent = await createIssue(company.id, { title: "Reach 100% done" });
    const noPercent = await createIssue(company.id, { title: "Reach 100 done" });
    const underscore = await createIssue(company.id, { title: "rename snake_case keys" });
    const noUnderscore = await createIssue(company.id, { title: "rename snakeXcase keys" });
    const backslash = await createIssue(company.id, { title: "escape back\\slash path" });
    const quotes = await createIssue(company.id, { title: 'say "hello" twice' });
    const accent = await createIssue(company.id, { title: "Réunion École" });
    const emoji = await createIssue(company.id, { title: "ship it 🚀 now" });
    const find = async (q: string) => ids(await search(company.id, q)).sort();
    const sorted = (...issues: Array<{ id: string }>) => issues.map((i) => i.id).sort();
    expect(await find("0% d")).toEqual(sorted(percent));
    expect(await find("%")).toEqual(sorted(percent));
    expect(await find("e_c")).toEqual(sorted(underscore));
    expect(await find("_")).toEqual(sorted(underscore));
    expect(await find("k\\s")).toEqual(sorted(backslash));
    expect(await find('"hello"')).toEqual(sorted(quotes));
    expect(await find('y "h')).toEqual(sorted(quotes));
    expect(await find("REACH 100")).toEqual(sorted(percent, noPercent));
    expect(await find("snakexcase")).toEqual(sorted(noUnderscore));
    // LIKE folds ASCII only: É and é are different letters, as before.
    expect(await find("École")).toEqual(sorted(accent));
    expect(await find("école")).toEqual([]);
    expect(await find("éu")).toEqual(sorted(accent));
    expect(await find("🚀")).toEqual(sorted(emoji));
    expect(await find("t 🚀 n")).toEqual(sorted(emoji));
    // The longest q (200 characters, 400 bytes: 398 windows per field) is a normal search.
    const long = await createIssue(company.id, { title: "é".repeat(240) });
    expect(await find("é".repeat(200))).toEqual(sorted(long));
    // Under three bytes the company is scanned: same answers.
    expect(await find("É")).toEqual(sorted(accent));
    expect(await find("é")).toEqual(sorted(accent, long));
    expect(await find("ke")).toEqual(sorted(underscore, noUnderscore));
  });

  it("follows every write: create, title and description updates, comments, an import, and the company's deletion", async () => {
    const company = await createCompany();
    const issue = await createIssue(company.id, { title: "Tune the gearbox", description: "oil pressure low" });
    expect(ids(await search(company.id, "gearbox"))).toEqual([issue.id]);
    expect(ids(await search(company.id, "pressure"))).toEqual([issue.id]);
    expect((await patch(`/api/issues/${issue.id}`, { title: "Tune the flywheel", description: "belt tension high" })).status).toBe(200);
    expect(ids(await search(company.id, "gearbox"))).toEqual([]);
    expect(ids(await search(company.id, "pressure"))).toEqual([]);
    expect(ids(await search(company.id, "flywheel"))).toEqual([issue.id]);
    expect(ids(await search(company.id, "tension"))).toEqual([issue.id]);
    expect((await patch(`/api/issues/${issue.id}`, { description: null })).status).toBe(200);
    expect(ids(await search(company.id, "tension"))).toEqual([]);
    await post(`/api/issues/${issue.id}/comments`, { body: "Checked the clutch plate" });
    await post(`/api/issues/${issue.id}/comments`, { body: "and the brake pads" });
    expect(ids(await search(company.id, "clutch plate"))).toEqual([issue.id]);
    expect(ids(await search(company.id, "brake pad"))).toEqual([issue.id]);
    // Comments are indexed one by one: no match across two of them.
    expect(ids(await search(company.id, "plate and"))).toEqual([]);

    // An import writes issues and comments straight into D1; the new company finds them.
    const exported = await post(`/api/companies/${company.id}/export`, { include: { comments: true } });
    expect(exported.status).toBe(200);
    const copy = await createCompany();
    const applied = await post(`/api/companies/${copy.id}/imports/apply`, { source: { type: "inline", files: exported.body.files } });
    expect(applied.status).toBe(200);
    const imported = ids(await search(copy.id, "flywheel"));
    expect(imported).toHaveLength(1);
    expect(imported[0]).not.toBe(issue.id);
    expect(ids(await search(copy.id, "clutch"))).toEqual(imported);
    expect(ids(await search(company.id, "flywheel"))).toEqual([issue.id]);

    // Deleting the company deletes its index rows (the issues and comments go by ON DELETE CASCADE).
    const indexed = (field: string, text: string) =>
      testD1
        .prepare(
          `SELECT count(*) AS n FROM ${field === "c" ? "issue_comment_search" : "issue_search"} WHERE ${field === "c" ? "issue_comment_search" : "issue_search"} MATCH ?`,
        )
        .bind(terms(copy.id, field, text))
        .first<{ n: number }>("n");
    expect(await indexed("t", "flywheel")).toBe(1);
    expect(await indexed("c", "clutch")).toBe(1);
    expect((await del(`/api/companies/${copy.id}`)).status).toBe(200);
    expect(await indexed("t", "flywheel")).toBe(0);
    expect(await indexed("c", "clutch")).toBe(0);
    expect(ids(await search(company.id, "clutch"))).toEqual([issue.id]);
  });
});

/** An FTS query for the index terms of `text` in one field (migration 0019), written out independently of the app. */
function terms(companyId: string, field: string, text: string): string {
  const bytes = new TextEncoder().encode(text.toLowerCase());
  const out: string[] = [];
  for (let i = 0; i + 3 <= bytes.length; i++) out.push(companyId.replaceAll("-", "") + field + Buffer.from(bytes.subarray(i, i + 3)).toString("hex"));
  return out.join(" ");
}

// ── First pages at scale ─────────────────────────────────────────────────────────────────────────
const PRIORITIES = ["critical", "high", "medium", "low"] as const;
const STATUSES = ["backlog", "todo", "in_progress", "in_review", "done"] as const;

interface Row {
  id: string;
  identifier: string;
  title: string;
  description: string;
  comments: string[];
  priority: (typeof PRIORITIES)[number];
  status: (typeof STATUSES)[number];
  updatedAt: string;
  hidden: boolean;
  routine: boolean;
}

/** The documented ranking, computed from the rows (LIKE folds ASCII letters only). */
function expected(rows: Row[], q: string, limit: number, keep: (r: Row) => boolean = () => true): string[] {
  const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const needle = fold(q);
  const tier = (r: Row) => {
    const title = fold(r.title);
    const identifier = fold(r.identifier);
    if (title.startsWith(needle)) return 0;
    if (title.includes(needle)) return 1;
    if (identifier.startsWith(needle)) return 2;
    if (identifier.includes(needle)) return 3;
    if (r.comments.some((c) => fold(c).includes(needle))) return 4;
    if (fold(r.description).includes(needle)) return 5;
    return null;
  };
  return rows
    .filter((r) => !r.hidden && !r.routine && keep(r))
    .map((r) => ({ r, tier: tier(r) }))
    .filter((x): x is { r: Row; tier: number } => x.tier !== null)
    .sort(
      (x, y) =>
        x.tier - y.tier ||
        PRIORITIES.indexOf(x.r.priority) - PRIORITIES.indexOf(y.r.priority) ||
        (x.r.updatedAt < y.r.updatedAt ? 1 : x.r.updatedAt > y.r.updatedAt ? -1 : 0) ||
        (x.r.id < y.r.id ? -1 : x.r.id > y.r.id ? 1 : 0),
    )
    .slice(0, limit)
    .map((x) => x.r.id);
}

const lit = (value: string | null) => (value === null ? "NULL" : `'${value.replace(/'/g, "''")}'`);

/** Issues (and comments) written straight into D1 in multi-row statements, numbered from `from`. */
async function seed(companyId: string, prefix: string, count: number, make: (n: number) => Omit<Row, "id" | "identifier">): Promise<Row[]> {
  const rows: Row[] = [];
  for (let n = 1; n <= count; n++) rows.push({ id: crypto.randomUUID(), identifier: `${prefix}-${n}`, ...make(n) });
  for (let start = 0; start < rows.length; start += 250) {
    const chunk = rows.slice(start, start + 250);
    const values = chunk.map(
      (r, i) =>
        `(${lit(r.id)}, ${lit(companyId)}, ${start + i + 1}, ${lit(r.identifier)}, ${lit(r.title)}, ${lit(r.description)}, ${lit(r.status)}, ${lit(r.priority)}, ${lit(r.routine ? "routine_execution" : "manual")}, ${lit(r.hidden ? r.updatedAt : null)}, ${lit(r.updatedAt)}, ${lit(r.updatedAt)})`,
    );
    await testD1
      .prepare(
        `INSERT INTO issues (id, company_id, number, identifier, title, description, status, priority, origin_kind, hidden_at, created_at, updated_at) VALUES ${values.join(", ")}`,
      )
      .run();
    const comments = chunk.flatMap((r) =>
      r.comments.map((body) => `(${lit(crypto.randomUUID())}, ${lit(companyId)}, ${lit(r.id)}, ${lit(body)}, ${lit(r.updatedAt)}, ${lit(r.updatedAt)})`),
    );
    if (comments.length)
      await testD1.prepare(`INSERT INTO issue_comments (id, company_id, issue_id, body, created_at, updated_at) VALUES ${comments.join(", ")}`).run();
  }
  await testD1.prepare("UPDATE companies SET issue_counter = ? WHERE id = ?").bind(count, companyId).run();
  return rows;
}

describe("issue search at scale", () => {
  it("first pages of common, skewed, selective and filtered terms equal the full ranking; another company's same words never appear", {
    timeout: 120_000,
  }, async () => {
    const company = await createCompany();
    const other = await createCompany();
    const base = Date.parse("2031-01-01T00:00:00.000Z");
    // 12,000 issues: "details" in every description (dense: more hits than the index counts, every
    // priority); "yankee" in the 10,500 low-priority descriptions (dense, none near the top);
    // "zulu" in 3,000 low-priority titles; "kumquat" in three comments; triples share updatedAt.
    const rows = await seed(company.id, company.issuePrefix, 12_000, (n) => ({
      title: `${n % 4 === 0 && n > 1_500 ? "Zulu " : ""}task ${n}${n % 7 === 0 ? " zulu" : ""}`,
      description: `Work item ${n} details${n > 1_500 ? " yankee" : ""}`,
      comments: n % 4_001 === 0 ? [`a kumquat for ${n}`] : n % 97 === 0 ? ["details inside a comment"] : [],
      priority: n <= 1_500 ? PRIORITIES[n % 3] : "low",
      status: STATUSES[n % 5],
      updatedAt: new Date(base - Math.floor(n / 3) * 1_000).toISOString(),
      hidden: n % 101 === 0,
      routine: n % 103 === 0,
    }));
    await seed(other.id, other.issuePrefix, 2_000, (n) => ({
      title: `Zulu task ${n}`,
      description: `details yankee ${n}`,
      comments: n % 10 === 0 ? ["kumquat"] : [],
      priority: "critical",
      status: "todo",
      updatedAt: new Date(base + n * 1_000).toISOString(),
      hidden: false,
      routine: false,
    }));
    const theirs = new Set<string>();
    const check = async (q: string, extra: string, limit: number, keep?: (r: Row) => boolean) => {
      const res = await search(company.id, q, `&limit=${limit}${extra}`);
      expect(res.status, q).toBe(200);
      const got = ids(res);
      for (const id of got) expect(theirs.has(id)).toBe(false);
      expect(got, `q=${q}${extra} limit=${limit}`).toEqual(expected(rows, q, limit, keep));
      return got;
    };
    for (const id of ids(await search(other.id, "zulu", "&limit=500"))) theirs.add(id);
    expect(theirs.size).toBe(500);
    expect((await check("details", "", 50)).length).toBe(50);
    await check("details", "", 500);
    await check("details", "&status=done", 500, (r) => r.status === "done");
    await check("yankee", "", 50);
    await check("YANKEE", "&status=todo", 7, (r) => r.status === "todo");
    await check("zulu", "", 50);
    await check("zulu", "", 500);
    await check("kumquat", "", 50);
    await check(`${company.issuePrefix}-1`, "", 50);
    await check("task 1", "", 20);
    await check("ask 11", "", 500);
    await check("nothing like this", "", 50);
  });
});

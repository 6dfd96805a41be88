// Wiki reads, for the plugin's routes and tools alike: overview, spaces, operations, pages (list,
// read with its hash, revisions, backlinks), sources (list, read) and search. Each read is one D1
// round trip (one batch), plus the R2 object for a page's or source's body.
//
// Search: the FTS5 indexes `wiki_page_search` and `wiki_source_search` (porter stemming) are
// matched with every word of the query (AND), joined to their rows filtered by company and space,
// and ranked by bm25 with the title weighted over the path over the body; page and source hits
// are merged by rank.
import { and, asc, count, desc, eq, like, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { ReadBatch } from "../../db/read-batch";
import { badRequest, notFound } from "../errors";
import type { Actor } from "../actor";
import type { WIKI_OPERATION_STATUSES, WIKI_OPERATION_TYPES } from "../../db/schema/plugins";
import { addSpaceRead, readableSpace, spaceSlugOf, wikiIdOf, DEFAULT_SPACE_SLUG, type SpaceRow, type WikiRef } from "./space";
import { readBody } from "./bodies";
import { backlinksQuery } from "./pages";
import { pageView, revisionView, sourceView, spaceView, operationView, querySessionView, type PageRow, type SourceRow } from "./view";
import { requirePagePath, requireRawPath } from "./paths";
import { pagePlainSnippet, pageRank, pageSnippet, sourceRank, sourceSnippet, wikiPageSearch, wikiSourceSearch } from "./search-index";
import { tierSql, type MatchTier } from "../search/match";

const p = schema.wikiPages;
const src = schema.wikiSources;
const sp = schema.wikiSpaces;
const op = schema.wikiOperations;

export const MAX_SEARCH_LIMIT = 50;
export const MAX_OPERATIONS_LIMIT = 500;
export const MAX_LIST_LIMIT = 1000;
export const MAX_REVISIONS_LIMIT = 500;
export const CAPABILITIES = ["pages", "sources", "spaces", "search", "backlinks", "query_sessions", "file_as_page", "agent_tools", "mcp"] as const;

/** The space a read works in (null: the default space, never written). One round trip with `more`. */
async function withSpace<T>(
  db: Db,
  actor: Actor,
  companyId: string,
  ref: WikiRef,
  more: (batch: ReadBatch, spaceId: ReturnType<typeof sql>) => T,
): Promise<{ space: SpaceRow | null; value: T }> {
  const batch = new ReadBatch(db);
  const space = addSpaceRead(batch, companyId, ref);
  const spaceId = sql`(SELECT ${sp.id} FROM ${sp} WHERE ${sp.companyId} = ${companyId} AND ${sp.wikiId} = ${wikiIdOf(ref)} AND ${sp.slug} = ${spaceSlugOf(ref)})`;
  const value = more(batch, spaceId);
  await batch.run();
  return { space: readableSpace(actor, ref, space.value[0]), value };
}

export async function wikiOverview(db: Db, actor: Actor, companyId: string, ref: WikiRef) {
  const wikiId = wikiIdOf(ref);
  const i = schema.wikiInstances;
  const batch = new ReadBatch(db);
  const instance = batch.add(
    db
      .select()
      .from(i)
      .where(and(eq(i.companyId, companyId), eq(i.wikiId, wikiId))),
  );
  const space = addSpaceRead(batch, companyId, { wikiId, spaceSlug: DEFAULT_SPACE_SLUG });
  const operations = batch.add(
    db
      .select({ n: count() })
      .from(op)
      .where(and(eq(op.companyId, companyId), eq(op.wikiId, wikiId))),
  );
  const agent = batch.add(
    db
      .select({ id: schema.agents.id, name: schema.agents.name, status: schema.agents.status })
      .from(schema.agents)
      .where(
        and(
          eq(schema.agents.companyId, companyId),
          sql`${schema.agents.id} = (SELECT ${i.managedAgentId} FROM ${i} WHERE ${i.companyId} = ${companyId} AND ${i.wikiId} = ${wikiId})`,
        ),
      ),
  );
  const project = batch.add(
    db
      .select({ id: schema.projects.id, name: schema.projects.name })
      .from(schema.projects)
      .where(
        and(
          eq(schema.projects.companyId, companyId),
          sql`${schema.projects.id} = (SELECT ${i.managedProjectId} FROM ${i} WHERE ${i.companyId} = ${companyId} AND ${i.wikiId} = ${wikiId})`,
        ),
      ),
  );
  const skills = batch.add(
    db
      .select({ id: schema.companySkills.id, key: schema.companySkills.key, name: schema.companySkills.name })
      .from(schema.companySkills)
      .where(
        and(
          eq(schema.companySkills.companyId, companyId),
          sql`${schema.companySkills.id} IN (SELECT value FROM json_each((SELECT ${i.managedSkillIds} FROM ${i} WHERE ${i.companyId} = ${companyId} AND ${i.wikiId} = ${wikiId})))`,
        ),
      ),
  );
  await batch.run();
  const defaultSpace = space.value[0];
  return {
    status: instance.value[0] ? ("ready" as const) : ("not_bootstrapped" as const),
    wikiId,
    defaultSpace: defaultSpace && (defaultSpace.accessScope === "company" || actor.type === "board") ? spaceView(defaultSpace) : null,
    managedAgent: agent.value[0] ?? null,
    managedProject: project.value[0] ?? null,
    managedSkills: skills.value,
    operationCount: operations.value[0]?.n ?? 0,
    capabilities: [...CAPABILITIES],
  };
}

/** The wiki's spaces, default first; archived ones hidden, and board-only ones from agents. */
export async function listSpaces(db: Db, actor: Actor, companyId: string, ref: WikiRef) {
  const rows = await db
    .select()
    .from(sp)
    .where(
      and(
        eq(sp.companyId, companyId),
        eq(sp.wikiId, wikiIdOf(ref)),
        eq(sp.status, "active"),
        actor.type === "board" ? undefined : eq(sp.accessScope, "company"),
      ),
    )
    .orderBy(sql`CASE WHEN ${sp.slug} = ${DEFAULT_SPACE_SLUG} THEN 0 ELSE 1 END`, asc(sp.slug));
  return { spaces: rows.map(spaceView) };
}

export interface OperationFilters extends WikiRef {
  operationType?: (typeof WIKI_OPERATION_TYPES)[number];
  status?: (typeof WIKI_OPERATION_STATUSES)[number];
  limit?: number;
}

export async function listOperations(db: Db, actor: Actor, companyId: string, filters: OperationFilters) {
  const rows = await db
    .select({ operation: op, spaceSlug: sp.slug, accessScope: sp.accessScope })
    .from(op)
    .leftJoin(sp, eq(sp.id, op.spaceId))
    .where(
      and(
        eq(op.companyId, companyId),
        eq(op.wikiId, wikiIdOf(filters)),
        filters.spaceSlug ? eq(sp.slug, filters.spaceSlug) : undefined,
        filters.operationType ? eq(op.operationType, filters.operationType) : undefined,
        filters.status ? eq(op.status, filters.status) : undefined,
        actor.type === "board" ? undefined : sql`coalesce(${sp.accessScope}, 'company') = 'company'`,
      ),
    )
    .orderBy(desc(op.createdAt), desc(op.id))
    .limit(Math.min(filters.limit ?? 50, MAX_OPERATIONS_LIMIT));
  return { operations: rows.map((r) => operationView(r.operation, r.spaceSlug)) };
}

export async function listPages(db: Db, actor: Actor, companyId: string, ref: WikiRef & { prefix?: string | null; limit?: number }) {
  const { space, value } = await withSpace(db, actor, companyId, ref, (batch, spaceId) =>
    batch.add(
      db
        .select()
        .from(p)
        .where(
          and(
            eq(p.companyId, companyId),
            sql`${p.spaceId} = ${spaceId}`,
            ref.prefix ? like(p.path, `${ref.prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
          ),
        )
        .orderBy(asc(p.path))
        .limit(Math.min(ref.limit ?? MAX_LIST_LIMIT, MAX_LIST_LIMIT)),
    ),
  );
  return { pages: space ? value.value.map(pageView) : [] };
}

/** A page with its contents and hash (what a later write's `expectedHash` names); 404 when missing. */
export async function readPage(env: Env, db: Db, actor: Actor, companyId: string, ref: WikiRef & { path: string }) {
  const path = requirePagePath(ref.path);
  const { space, value } = await withSpace(db, actor, companyId, ref, (batch, spaceId) => ({
    page: batch.add(
      db
        .select()
        .from(p)
        .where(and(eq(p.companyId, companyId), sql`${p.spaceId} = ${spaceId}`, eq(p.path, path))),
    ),
    backlinks: batch.add(backlinksQuery(db, companyId, spaceId, path)),
  }));
  const row: PageRow | undefined = space ? value.page.value[0] : undefined;
  if (!row) throw notFound(`Page ${path} not found`);
  return { ...pageView(row), contents: await readBody(env, row.objectKey), backlinks: value.backlinks.value.map((b) => b.path) };
}

/**
 * The revisions of the page at `path`, newest first: its writes, and its moves (a moved page keeps
 * its history); 404 when no page is there.
 */
export async function listRevisions(db: Db, actor: Actor, companyId: string, ref: WikiRef & { path: string; limit?: number }) {
  const path = requirePagePath(ref.path);
  const r = schema.wikiPageRevisions;
  const { space, value } = await withSpace(db, actor, companyId, ref, (batch, spaceId) =>
    batch.add(
      db
        .select({ revision: r })
        .from(p)
        .innerJoin(r, eq(r.pageId, p.id))
        .where(and(eq(p.companyId, companyId), sql`${p.spaceId} = ${spaceId}`, eq(p.path, path)))
        .orderBy(desc(r.createdAt), sql`${r}.rowid DESC`)
        .limit(Math.min(ref.limit ?? MAX_REVISIONS_LIMIT, MAX_REVISIONS_LIMIT)),
    ),
  );
  const rows = space ? value.value : [];
  if (!rows.length) throw notFound(`Page ${path} not found`);
  return { path, revisions: rows.map((row) => revisionView(row.revision)) };
}

/** Pages linking to `path` (whether or not it exists: a link to a missing page is still a link). */
export async function listBacklinks(db: Db, actor: Actor, companyId: string, ref: WikiRef & { path: string }) {
  const path = requirePagePath(ref.path);
  const { space, value } = await withSpace(db, actor, companyId, ref, (batch, spaceId) => batch.add(backlinksQuery(db, companyId, spaceId, path)));
  return { path, backlinks: space ? value.value.map((b) => b.path) : [] };
}

export async function listSources(db: Db, actor: Actor, companyId: string, ref: WikiRef & { limit?: number }) {
  const { space, value } = await withSpace(db, actor, companyId, ref, (batch, spaceId) =>
    batch.add(
      db
        .select()
        .from(src)
        .where(and(eq(src.companyId, companyId), sql`${src.spaceId} = ${spaceId}`))
        .orderBy(desc(src.createdAt), asc(src.rawPath))
        .limit(Math.min(ref.limit ?? 100, MAX_LIST_LIMIT)),
    ),
  );
  return { sources: space ? value.value.map(sourceView) : [] };
}

export async function readSource(env: Env, db: Db, actor: Actor, companyId: string, ref: WikiRef & { rawPath: string }) {
  const rawPath = requireRawPath(ref.rawPath);
  const { space, value } = await withSpace(db, actor, companyId, ref, (batch, spaceId) =>
    batch.add(
      db
        .select()
        .from(src)
        .where(and(eq(src.companyId, companyId), sql`${src.spaceId} = ${spaceId}`, eq(src.rawPath, rawPath))),
    ),
  );
  const row: SourceRow | undefined = space ? value.value[0] : undefined;
  if (!row) throw notFound(`Source ${rawPath} not found`);
  return { ...sourceView(row), contents: await readBody(env, row.objectKey) };
}

/** FTS5 query: every word of `query`, each quoted (operators and punctuation are plain text); null without words. */
function ftsMatch(query: string): string | null {
  const words = query.match(/[\p{L}\p{N}_]+/gu)?.slice(0, 16) ?? [];
  return words.length ? words.map((w) => `"${w}"`).join(" ") : null;
}

/** FTS5 query: every word of `query` (400 without any). */
export function ftsQuery(query: string): string {
  const match = ftsMatch(query);
  if (!match) throw badRequest("The search query needs at least one word", { query });
  return match;
}

export interface SearchHit {
  kind: "page" | "source";
  path: string;
  title: string;
  snippet: string;
  hash: string;
  rank: number;
}

export async function searchWiki(db: Db, actor: Actor, companyId: string, ref: WikiRef & { query: string; limit?: number }) {
  const match = ftsQuery(ref.query);
  const limit = Math.min(Math.max(ref.limit ?? 10, 1), MAX_SEARCH_LIMIT);
  const ps = wikiPageSearch;
  const ss = wikiSourceSearch;
  const { space, value } = await withSpace(db, actor, companyId, ref, (batch, spaceId) => ({
    pages: batch.add(
      db
        .select({ path: p.path, title: p.title, hash: p.hash, snippet: pageSnippet, rank: pageRank })
        .from(ps)
        .innerJoin(p, sql`${p}.rowid = ${ps.rowid}`)
        .where(and(sql`wiki_page_search MATCH ${match}`, eq(p.companyId, companyId), sql`${p.spaceId} = ${spaceId}`))
        .orderBy(pageRank)
        .limit(limit),
    ),
    sources: batch.add(
      db
        .select({ path: src.rawPath, title: src.title, hash: src.hash, snippet: sourceSnippet, rank: sourceRank })
        .from(ss)
        .innerJoin(src, sql`${src}.rowid = ${ss.rowid}`)
        .where(and(sql`wiki_source_search MATCH ${match}`, eq(src.companyId, companyId), sql`${src.spaceId} = ${spaceId}`))
        .orderBy(sourceRank)
        .limit(limit),
    ),
  }));
  if (!space) return { query: ref.query, results: [] as SearchHit[] };
  const results: SearchHit[] = [
    ...value.pages.value.map((h) => ({ ...h, kind: "page" as const })),
    ...value.sources.value.map((h) => ({ ...h, kind: "source" as const })),
  ]
    .sort((a, b) => a.rank - b.rank)
    .slice(0, limit);
  return { query: ref.query, results };
}

/**
 * For the company search (src/domain/search): pages of every space the caller reads (active; board-only
 * ones for board callers) whose text holds every word of q, by match tier (title equals, starts
 * with, contains q, else the body) then bm25; null when q has no words to look for.
 */
export function addPageMatches(batch: ReadBatch, actor: Actor, companyId: string, q: string, limit: number) {
  const match = ftsMatch(q);
  if (!match) return null;
  const tier = sql<MatchTier>`coalesce(${tierSql(sql`${p.title}`, [], sql`lower(${q})`)}, 3)`;
  return batch.add(
    batch.db
      .select({ id: p.id, path: p.path, title: p.title, wikiId: sp.wikiId, spaceSlug: sp.slug, snippet: pagePlainSnippet, tier })
      .from(wikiPageSearch)
      .innerJoin(p, sql`${p}.rowid = ${wikiPageSearch.rowid}`)
      .innerJoin(sp, eq(sp.id, p.spaceId))
      .where(
        and(
          sql`wiki_page_search MATCH ${match}`,
          eq(p.companyId, companyId),
          eq(sp.status, "active"),
          actor.type === "board" ? undefined : eq(sp.accessScope, "company"),
        ),
      )
      .orderBy(tier, pageRank)
      .limit(limit),
  );
}

/** A query session of the company (404 otherwise). */
export async function querySession(db: Db, companyId: string, sessionId: string) {
  const q = schema.wikiQuerySessions;
  const [row] = await db
    .select()
    .from(q)
    .where(and(eq(q.id, sessionId), eq(q.companyId, companyId)));
  if (!row) throw notFound("Query session not found");
  return querySessionView(row);
}

// Page writes, run in the company object: write (also the index and file-as-page), append to the
// log, move and delete. Each loads the space and the page outside the serialised section, checks
// `expectedHash` against that snapshot, and writes one batch guarded on the page being exactly as
// read — so of two writers holding the same hash one wins and the other, re-deciding on the fresh
// row, gets 409 with the current hash. The body goes to R2 first (content-addressed); the batch
// holds the page row, its revision, its links, its search text, the operation and the activity
// entry (its event).
import { and, eq, sql, type SQL } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import type { Statement } from "../../db/batch";
import { ReadBatch, type Pending } from "../../db/read-batch";
import { noRowExists, rowExists } from "../../db/guards";
import { defineCommand, type CommandContext, type LoadScope } from "../../company/command";
import type { Actor } from "../actor";
import { conflict, forbidden, notFound } from "../errors";
import { newId } from "../../crypto/random";
import { addSpaceRead, spaceIdSql, spaceSlugOf, wikiIdOf, writableSpace, type SpaceRow, type WikiRef } from "./space";
import { AGENT_PROTECTED_FILES, LOG_PATH, pageTypeOf, requirePagePath, titleOf } from "./paths";
import { linkedPaths } from "./links";
import { hashOf, putBody, readBody } from "./bodies";
import { authorColumns, operationInsert } from "./operations";
import type { WIKI_OPERATION_TYPES } from "../../db/schema/plugins";
import type { PageRow } from "./view";
import { wikiPageSearch } from "./search-index";

const p = schema.wikiPages;
const l = schema.wikiLinks;

/** Links kept per page (more are ignored): 20 rows per insert keeps each statement under D1's 100 bound values. */
export const MAX_LINKS_PER_PAGE = 500;
const LINK_ROWS_PER_INSERT = 20;

export interface PageLoaded {
  space: SpaceRow | undefined;
  page: PageRow | undefined;
  /** Paths of the pages linking to the page's path (before the write). */
  backlinks: string[];
  /** For moves: the page already at the new path. */
  target?: PageRow | undefined;
}

const pageQuery = (db: Db, companyId: string, ref: WikiRef, path: string) =>
  db
    .select()
    .from(p)
    .where(and(eq(p.companyId, companyId), sql`${p.spaceId} = ${spaceIdSql(companyId, ref)}`, eq(p.path, path)));

/** Paths of the pages of the space linking to `path`, sorted. */
export const backlinksQuery = (db: Db, companyId: string, spaceId: SQL | string, path: string) =>
  db
    .select({ path: p.path })
    .from(l)
    .innerJoin(p, eq(p.id, l.sourcePageId))
    .where(and(eq(l.companyId, companyId), sql`${l.spaceId} = ${spaceId}`, eq(l.targetPath, path)))
    .orderBy(p.path);

/**
 * The space, the page at `path` (and at `targetPath`) and its backlinks: one round trip, with
 * whatever else `more` adds to the same batch (its handle is read after the batch ran).
 */
export async function loadPage<T = undefined>(
  db: Db,
  companyId: string,
  ref: WikiRef,
  path: string,
  options: { targetPath?: string; more?: (batch: ReadBatch) => Pending<T> } = {},
): Promise<PageLoaded & { more: T }> {
  const batch = new ReadBatch(db);
  const space = addSpaceRead(batch, companyId, ref);
  const page = batch.add(pageQuery(db, companyId, ref, path));
  const backlinks = batch.add(backlinksQuery(db, companyId, spaceIdSql(companyId, ref), path));
  const target = options.targetPath ? batch.add(pageQuery(db, companyId, ref, options.targetPath)) : null;
  const more = options.more?.(batch);
  await batch.run();
  return { space: space.value[0], page: page.value[0], backlinks: backlinks.value.map((b) => b.path), target: target?.value[0], more: more?.value as T };
}

const scopeCompany = (scope: LoadScope) => scope.companyId!;

/** 409 unless the caller's `expectedHash` is the page's current hash (null when the page does not exist). */
export function checkExpectedHash(path: string, page: PageRow | undefined, expectedHash: string | null | undefined) {
  if (expectedHash === undefined || expectedHash === null) return;
  const currentHash = page?.hash ?? null;
  if (expectedHash !== currentHash) {
    throw conflict(`Stale write: ${path} ${currentHash ? "has changed" : "does not exist"} (expectedHash is not its current hash)`, {
      path,
      expectedHash,
      currentHash,
    });
  }
}

function refuseProtected(actor: Actor, path: string, verb: string) {
  if (actor.type === "agent" && AGENT_PROTECTED_FILES.includes(path)) throw forbidden(`Agents may not ${verb} the control file ${path}`, { path });
}

/** The batch's precondition: the space as read and the page at `path` exactly as read (or still absent). */
function pageCondition(space: { space: SpaceRow; condition: SQL }, path: string, page: PageRow | undefined): SQL {
  const pageHolds = page
    ? rowExists(p, { id: page.id, hash: page.hash, path: page.path })
    : noRowExists(p, and(eq(p.spaceId, space.space.id), eq(p.path, path))!);
  return and(space.condition, pageHolds)!;
}

const pageRowid = (pageId: string) => sql<number>`(SELECT rowid FROM ${p} WHERE ${p.id} = ${pageId})`;
const searchDelete = (ctx: CommandContext, pageId: string) => ctx.db.delete(wikiPageSearch).where(sql`${wikiPageSearch.rowid} = ${pageRowid(pageId)}`);
const searchInsert = (ctx: CommandContext, pageId: string, title: string, path: string, body: string) =>
  ctx.db.insert(wikiPageSearch).values({ rowid: pageRowid(pageId), title, path, body });

/** Replaces the page's links with those its contents make. */
function linkStatements(ctx: CommandContext, spaceId: string, pageId: string, links: string[]): Statement[] {
  const statements: Statement[] = [ctx.db.delete(l).where(eq(l.sourcePageId, pageId))];
  const kept = links.slice(0, MAX_LINKS_PER_PAGE);
  for (let i = 0; i < kept.length; i += LINK_ROWS_PER_INSERT) {
    statements.push(
      ctx.db
        .insert(l)
        .values(kept.slice(i, i + LINK_ROWS_PER_INSERT).map((targetPath) => ({ companyId: ctx.companyId, spaceId, sourcePageId: pageId, targetPath }))),
    );
  }
  return statements;
}

export interface PageWriteOptions {
  operationType: "write_page" | "update_index" | "append_log" | "file_as_page";
  summary?: string | null;
  title?: string | null;
  /** Extra fields of the operation and activity details (a query session's id). */
  details?: Record<string, unknown>;
  /** Statements to write in the same batch (a query session marked filed). */
  extra?: Statement[];
}

export interface PageWriteResult {
  path: string;
  hash: string;
  previousHash: string | null;
  revisionId: string;
  created: boolean;
  /** Nothing was written: the contents equal the page's. */
  unchanged: boolean;
  /** Pages linking to this one. */
  backlinks: string[];
  /** Pages this one links to. */
  links: string[];
  page: { path: string; title: string; pageType: PageRow["pageType"]; revisionId: string };
  operationId: string | null;
}

/** Writes `contents` at `path` after the checks; one R2 put and one guarded batch. */
export async function writePageContents(
  ctx: CommandContext,
  actor: Actor,
  ref: WikiRef,
  loaded: PageLoaded,
  path: string,
  contents: string,
  options: PageWriteOptions,
): Promise<PageWriteResult> {
  const space = writableSpace(ctx, actor, ref, loaded.space);
  const { page } = loaded;
  const links = linkedPaths(path, contents);
  const hash = hashOf(contents);
  const title = options.title?.trim() || titleOf(path, contents);
  if (page && page.hash === hash && page.title === title && !options.extra?.length) {
    return {
      path,
      hash,
      previousHash: hash,
      revisionId: page.revisionId,
      created: false,
      unchanged: true,
      backlinks: loaded.backlinks,
      links,
      page: { path, title: page.title, pageType: page.pageType, revisionId: page.revisionId },
      operationId: null,
    };
  }
  const body = await putBody(ctx.env, ctx.companyId, contents, hash);
  const pageId = page?.id ?? newId();
  const revisionId = newId();
  const pageType = pageTypeOf(path);
  const wikiId = wikiIdOf(ref);
  const previousHash = page?.hash ?? null;
  const operation = operationInsert(ctx, actor, {
    wikiId,
    spaceId: space.space.id,
    operationType: options.operationType,
    summary: options.summary ?? null,
    details: { path, hash, previousHash, revisionId, ...options.details },
  });
  const row: PageRow = {
    id: pageId,
    companyId: ctx.companyId,
    spaceId: space.space.id,
    path,
    title,
    pageType,
    hash,
    revisionId,
    objectKey: body.objectKey,
    sizeBytes: body.sizeBytes,
    createdAt: page?.createdAt ?? ctx.now,
    updatedAt: ctx.now,
  };
  const { createdAt: _created, id: _id, companyId: _company, spaceId: _space, ...changes } = row;
  await ctx.batch([
    ctx.guard(pageCondition(space, path, page)),
    ...space.statements,
    page ? ctx.db.update(p).set(changes).where(eq(p.id, pageId)) : ctx.db.insert(p).values(row),
    ctx.db.insert(schema.wikiPageRevisions).values({
      id: revisionId,
      companyId: ctx.companyId,
      spaceId: space.space.id,
      pageId,
      path,
      change: "write",
      hash,
      previousHash,
      objectKey: body.objectKey,
      summary: options.summary ?? null,
      operationId: operation.row.id,
      ...authorColumns(actor),
      runId: actor.runId ?? null,
      createdAt: ctx.now,
    }),
    ...linkStatements(ctx, space.space.id, pageId, links),
    ...(page ? [searchDelete(ctx, pageId)] : []),
    searchInsert(ctx, pageId, title, path, contents),
    operation.statement,
    ...(options.extra ?? []),
    ctx.activity({
      action: "wiki.page_written",
      entityType: "wiki_page",
      entityId: pageId,
      details: {
        wikiId,
        spaceSlug: space.space.slug,
        path,
        title,
        hash,
        previousHash,
        revisionId,
        operationId: operation.row.id,
        operationType: options.operationType,
        created: !page,
        ...options.details,
      },
    }),
  ]);
  return {
    path,
    hash,
    previousHash,
    revisionId,
    created: !page,
    unchanged: false,
    backlinks: loaded.backlinks,
    links,
    page: { path, title, pageType, revisionId },
    operationId: operation.row.id,
  };
}

export interface WritePageInput extends WikiRef {
  path: string;
  contents: string;
  expectedHash?: string | null;
  summary?: string | null;
  title?: string | null;
  operationType?: "write_page" | "update_index";
}

export const writePage = defineCommand("wiki.page.write", {
  load: (db: Db, scope: LoadScope, input: WritePageInput) => loadPage(db, scopeCompany(scope), input, input.path),
  run: async (ctx, actor, input, loaded): Promise<PageWriteResult> => {
    const path = requirePagePath(input.path);
    refuseProtected(actor, path, "write");
    checkExpectedHash(path, loaded.page, input.expectedHash);
    return writePageContents(ctx, actor, input, loaded, path, input.contents, {
      operationType: input.operationType ?? "write_page",
      summary: input.summary,
      title: input.title,
    });
  },
});

/** One log line per entry (continuation lines indented under it). */
export const logLine = (now: string, entry: string) => `- ${now} ${entry.trim().replace(/\r?\n/g, "\n  ")}\n`;
const LOG_HEADER = "# Wiki log\n\nAppend-only record of wiki maintenance.\n\n";

export const appendLog = defineCommand("wiki.log.append", {
  load: (db: Db, scope: LoadScope, input: WikiRef & { entry: string }) => loadPage(db, scopeCompany(scope), input, LOG_PATH),
  run: async (ctx, actor, input, loaded) => {
    // Read, append and write under the page's guard: a concurrent append makes this batch re-decide on the new log.
    const current = loaded.page ? await readBody(ctx.env, loaded.page.objectKey) : LOG_HEADER;
    const contents = `${current}${current.endsWith("\n") ? "" : "\n"}${logLine(ctx.now, input.entry)}`;
    const result = await writePageContents(ctx, actor, input, loaded, LOG_PATH, contents, { operationType: "append_log", summary: input.entry.slice(0, 200) });
    return { ...result, entry: logLine(ctx.now, input.entry).trimEnd() };
  },
});

export interface MovePageInput extends WikiRef {
  path: string;
  newPath: string;
  expectedHash?: string | null;
  summary?: string | null;
}

export const movePage = defineCommand("wiki.page.move", {
  load: (db: Db, scope: LoadScope, input: MovePageInput) => loadPage(db, scopeCompany(scope), input, input.path, { targetPath: input.newPath }),
  run: async (ctx, actor, input, loaded) => {
    const path = requirePagePath(input.path);
    const newPath = requirePagePath(input.newPath);
    refuseProtected(actor, path, "move");
    refuseProtected(actor, newPath, "write");
    const { page } = loaded;
    if (!page) throw notFound(`Page ${path} not found`);
    checkExpectedHash(path, page, input.expectedHash);
    if (path === newPath) throw conflict("The page is already at that path", { path });
    if (loaded.target) throw conflict(`A page already exists at ${newPath}`, { path: newPath, currentHash: loaded.target.hash });
    const space = writableSpace(ctx, actor, input, loaded.space);
    const contents = await readBody(ctx.env, page.objectKey);
    // Relative links resolve from the new place.
    const links = linkedPaths(newPath, contents);
    const revisionId = newId();
    const pageType = pageTypeOf(newPath);
    const wikiId = wikiIdOf(input);
    const operation = operationInsert(ctx, actor, {
      wikiId,
      spaceId: space.space.id,
      operationType: "move_page",
      summary: input.summary ?? null,
      details: { path, newPath, hash: page.hash, revisionId },
    });
    await ctx.batch([
      ctx.guard(and(pageCondition(space, path, page), noRowExists(p, and(eq(p.spaceId, space.space.id), eq(p.path, newPath))!))!),
      ctx.db.update(p).set({ path: newPath, pageType, revisionId, updatedAt: ctx.now }).where(eq(p.id, page.id)),
      ctx.db.insert(schema.wikiPageRevisions).values({
        id: revisionId,
        companyId: ctx.companyId,
        spaceId: space.space.id,
        pageId: page.id,
        path: newPath,
        change: "move",
        hash: page.hash,
        previousHash: page.hash,
        objectKey: page.objectKey,
        summary: input.summary ?? `Moved from ${path}`,
        operationId: operation.row.id,
        ...authorColumns(actor),
        runId: actor.runId ?? null,
        createdAt: ctx.now,
      }),
      ...linkStatements(ctx, space.space.id, page.id, links),
      searchDelete(ctx, page.id),
      searchInsert(ctx, page.id, page.title, newPath, contents),
      operation.statement,
      ctx.activity({
        action: "wiki.page_moved",
        entityType: "wiki_page",
        entityId: page.id,
        details: { wikiId, spaceSlug: space.space.slug, path: newPath, previousPath: path, hash: page.hash, revisionId, operationId: operation.row.id },
      }),
    ]);
    return { path: newPath, previousPath: path, hash: page.hash, revisionId, links, operationId: operation.row.id };
  },
});

export interface DeletePageInput extends WikiRef {
  path: string;
  expectedHash?: string | null;
  summary?: string | null;
}

export const deletePage = defineCommand("wiki.page.delete", {
  load: (db: Db, scope: LoadScope, input: DeletePageInput) => loadPage(db, scopeCompany(scope), input, input.path),
  run: async (ctx, actor, input, loaded) => {
    const path = requirePagePath(input.path);
    refuseProtected(actor, path, "delete");
    const { page } = loaded;
    if (!page) throw notFound(`Page ${path} not found`);
    checkExpectedHash(path, page, input.expectedHash);
    const space = writableSpace(ctx, actor, input, loaded.space);
    const revisionId = newId();
    const wikiId = wikiIdOf(input);
    const operation = operationInsert(ctx, actor, {
      wikiId,
      spaceId: space.space.id,
      operationType: "delete_page",
      summary: input.summary ?? null,
      details: { path, previousHash: page.hash, revisionId },
    });
    await ctx.batch([
      ctx.guard(pageCondition(space, path, page)),
      // Its links go with it (ON DELETE CASCADE), its search text by trigger.
      ctx.db.delete(p).where(eq(p.id, page.id)),
      ctx.db.insert(schema.wikiPageRevisions).values({
        id: revisionId,
        companyId: ctx.companyId,
        spaceId: space.space.id,
        pageId: page.id,
        path,
        change: "delete",
        hash: null,
        previousHash: page.hash,
        objectKey: null,
        summary: input.summary ?? null,
        operationId: operation.row.id,
        ...authorColumns(actor),
        runId: actor.runId ?? null,
        createdAt: ctx.now,
      }),
      operation.statement,
      ctx.activity({
        action: "wiki.page_deleted",
        entityType: "wiki_page",
        entityId: page.id,
        details: { wikiId, spaceSlug: spaceSlugOf(input), path, previousHash: page.hash, revisionId, operationId: operation.row.id },
      }),
    ]);
    return { path, deleted: true as const, previousHash: page.hash, revisionId, operationId: operation.row.id };
  },
});

export type WikiOperationType = (typeof WIKI_OPERATION_TYPES)[number];

// The knowledge-wiki plugin's scoped routes, under /api/plugins/knowledge-wiki/api (mounted by the
// plugin host, src/routes/plugins.ts): overview, bootstrap, sources, spaces, operations, query
// sessions, file-as-page, and pages for board callers (list, read, revisions, backlinks, search,
// write). Reads are the wiki's queries; writes its commands in the company object.
import type { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { runCompanyCommand } from "../company/client";
import { errors, jsonBody, jsonContent } from "../schemas/common";
import {
  CapturedSourceSchema,
  CaptureSourceSchema,
  CreatedWikiSpaceSchema,
  CreateSpaceSchema,
  FileAsPageSchema,
  FiledPageSchema,
  OperationsQuery,
  PageQuery,
  PagesQuery,
  RevisionsQuery,
  QuerySessionStartedSchema,
  SpaceBootstrapSchema,
  SpaceSlugParam,
  StartQuerySchema,
  UpdateSpaceSchema,
  WikiBacklinksSchema,
  WikiBootstrapSchema,
  WikiCompanyBody,
  WikiCompanyQuery,
  WikiOperationsSchema,
  WikiOverviewSchema,
  WikiPageContentSchema,
  WikiPagesSchema,
  WikiRevisionsSchema,
  WikiSearchQuery,
  WikiSearchSchema,
  WikiSpaceResponseSchema,
  WikiSpacesSchema,
  WritePageSchema,
  WrittenPageSchema,
} from "../schemas/wiki";
import { jsonOnlyResponse, mountPluginRoute } from "./plugins";
import { WIKI_ROUTES } from "../domain/wiki/plugin";
import { listBacklinks, listOperations, listPages, listRevisions, listSpaces, readPage, searchWiki, wikiOverview } from "../domain/wiki/queries";
import { writePage } from "../domain/wiki/pages";
import { bootstrapWiki } from "../domain/wiki/bootstrap";
import { captureSource } from "../domain/wiki/sources";
import { archiveSpace, bootstrapSpace, createSpace, updateSpace } from "../domain/wiki/spaces";
import { fileAsPage, startQuery } from "../domain/wiki/query";

const tags = ["Knowledge wiki"];
export const wikiRouter = createRouter();
/** A route's documentation, schemas and responses; its method, path and caller rule are the plugin's declaration (WIKI_ROUTES). */
const route = <R extends Omit<Parameters<typeof createRoute>[0], "method" | "path">>(r: R) => r;

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.overview,
  route({
    operationId: "getWikiOverview",
    tags,
    summary: "The wiki's state: bootstrapped or not, default space, managed agent, project and skills, operation count (board or agent)",
    request: { query: WikiCompanyQuery },
    responses: { 200: jsonContent(WikiOverviewSchema, "Overview"), ...errors(400, 401, 403, 404, 503) },
  }),
  async (c, gate) => {
    const query = c.req.valid("query");
    const actor = await gate(query.companyId);
    return c.json(await wikiOverview(dbOf(c), actor, query.companyId, query), 200);
  },
);

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.bootstrap,
  route({
    operationId: "bootstrapWiki",
    tags,
    summary:
      "Write the missing control files (AGENTS.md, IDEA.md, wiki/index.md, wiki/log.md) and ensure the paused Wiki Maintainer, its project, the wiki skills and paused maintenance routines (board; idempotent)",
    request: { body: jsonBody(WikiCompanyBody) },
    responses: { 201: jsonContent(WikiBootstrapSchema, "Bootstrapped"), ...errors(400, 401, 403, 404, 409, 503), ...jsonOnlyResponse },
  }),
  async (c, gate) => {
    const body = c.req.valid("json");
    const actor = await gate(body.companyId);
    return c.json(await runCompanyCommand(c.env, body.companyId, bootstrapWiki, actor, { wikiId: body.wikiId }), 201);
  },
);

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.captureSource,
  route({
    operationId: "captureWikiSource",
    tags,
    summary: "Capture a raw source under raw/ (board or agent); over its type's capture cap: 413 naming the cap",
    request: { body: jsonBody(CaptureSourceSchema) },
    responses: { 201: jsonContent(CapturedSourceSchema, "Captured"), ...errors(400, 401, 403, 404, 409, 413, 503), ...jsonOnlyResponse },
  }),
  async (c, gate) => {
    const { companyId, ...input } = c.req.valid("json");
    const actor = await gate(companyId);
    return c.json(await runCompanyCommand(c.env, companyId, captureSource, actor, input), 201);
  },
);

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.listSpaces,
  route({
    operationId: "listWikiSpaces",
    tags,
    summary: "The wiki's spaces, default first; archived ones hidden, board-only ones hidden from agents (board or agent)",
    request: { query: WikiCompanyQuery },
    responses: { 200: jsonContent(WikiSpacesSchema, "Spaces"), ...errors(400, 401, 403, 404, 503) },
  }),
  async (c, gate) => {
    const query = c.req.valid("query");
    const actor = await gate(query.companyId);
    return c.json(await listSpaces(dbOf(c), actor, query.companyId, query), 200);
  },
);

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.createSpace,
  route({
    operationId: "createWikiSpace",
    tags,
    summary: "Create a space (board); a slug already taken is 409",
    request: { body: jsonBody(CreateSpaceSchema) },
    responses: { 201: jsonContent(CreatedWikiSpaceSchema, "Created"), ...errors(400, 401, 403, 404, 409, 503), ...jsonOnlyResponse },
  }),
  async (c, gate) => {
    const { companyId, ...input } = c.req.valid("json");
    const actor = await gate(companyId);
    return c.json(await runCompanyCommand(c.env, companyId, createSpace, actor, input), 201);
  },
);

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.updateSpace,
  route({
    operationId: "updateWikiSpace",
    tags,
    summary: "Rename a space, change its settings, archive or restore it (board); archiving the default space is refused (409)",
    request: { params: SpaceSlugParam, body: jsonBody(UpdateSpaceSchema) },
    responses: { 200: jsonContent(WikiSpaceResponseSchema, "The space"), ...errors(400, 401, 403, 404, 409, 503), ...jsonOnlyResponse },
  }),
  async (c, gate) => {
    const { companyId, ...input } = c.req.valid("json");
    const actor = await gate(companyId);
    return c.json(await runCompanyCommand(c.env, companyId, updateSpace, actor, { ...input, spaceSlug: c.req.valid("param").spaceSlug }), 200);
  },
);

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.bootstrapSpace,
  route({
    operationId: "bootstrapWikiSpace",
    tags,
    summary: "Write the space's missing control files (board; existing ones are preserved)",
    request: { params: SpaceSlugParam, body: jsonBody(WikiCompanyBody) },
    responses: { 201: jsonContent(SpaceBootstrapSchema, "Bootstrapped"), ...errors(400, 401, 403, 404, 409, 503), ...jsonOnlyResponse },
  }),
  async (c, gate) => {
    const body = c.req.valid("json");
    const actor = await gate(body.companyId);
    return c.json(
      await runCompanyCommand(c.env, body.companyId, bootstrapSpace, actor, { wikiId: body.wikiId, spaceSlug: c.req.valid("param").spaceSlug }),
      201,
    );
  },
);

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.archiveSpace,
  route({
    operationId: "archiveWikiSpace",
    tags,
    summary: "Archive a space: hidden and read-only (board); the default space cannot be archived (409)",
    request: { params: SpaceSlugParam, body: jsonBody(WikiCompanyBody) },
    responses: { 200: jsonContent(WikiSpaceResponseSchema, "The space"), ...errors(400, 401, 403, 404, 409, 503), ...jsonOnlyResponse },
  }),
  async (c, gate) => {
    const body = c.req.valid("json");
    const actor = await gate(body.companyId);
    return c.json(await runCompanyCommand(c.env, body.companyId, archiveSpace, actor, { wikiId: body.wikiId, spaceSlug: c.req.valid("param").spaceSlug }), 200);
  },
);

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.listOperations,
  route({
    operationId: "listWikiOperations",
    tags,
    summary: "The wiki's operations, newest first (board or agent)",
    request: { query: OperationsQuery },
    responses: { 200: jsonContent(WikiOperationsSchema, "Operations"), ...errors(400, 401, 403, 404, 503) },
  }),
  async (c, gate) => {
    const query = c.req.valid("query");
    const actor = await gate(query.companyId);
    return c.json(await listOperations(dbOf(c), actor, query.companyId, query), 200);
  },
);

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.startQuery,
  route({
    operationId: "startWikiQuerySession",
    tags,
    summary: "Ask the wiki maintainer a question (board): an operation issue assigned to it wakes it; progress and the answer arrive as wiki.query.* events",
    description: "A paused or missing maintainer: 409 saying so (details.operationId names the blocked operation left behind).",
    request: { body: jsonBody(StartQuerySchema) },
    responses: { 201: jsonContent(QuerySessionStartedSchema, "Started"), ...errors(400, 401, 403, 404, 409, 503), ...jsonOnlyResponse },
  }),
  async (c, gate) => {
    const { companyId, ...input } = c.req.valid("json");
    const actor = await gate(companyId);
    return c.json(await runCompanyCommand(c.env, companyId, startQuery, actor, input), 201);
  },
);

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.fileAsPage,
  route({
    operationId: "fileWikiPage",
    tags,
    summary: "File contents, an answer, or a query session's answer as a wiki page (board); expectedHash as for page writes",
    request: { body: jsonBody(FileAsPageSchema) },
    responses: { 201: jsonContent(FiledPageSchema, "Filed"), ...errors(400, 401, 403, 404, 409, 503), ...jsonOnlyResponse },
  }),
  async (c, gate) => {
    const { companyId, ...input } = c.req.valid("json");
    const actor = await gate(companyId);
    return c.json(await runCompanyCommand(c.env, companyId, fileAsPage, actor, input), 201);
  },
);

// ---------------------------------------------------------------------------------------------
// Pages for board callers (agents read too; they write with their tools)

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.listPages,
  route({
    operationId: "listWikiPages",
    tags,
    summary: "The space's pages (path, title, type, hash), by path (board or agent)",
    request: { query: PagesQuery },
    responses: { 200: jsonContent(WikiPagesSchema, "Pages"), ...errors(400, 401, 403, 404, 503) },
  }),
  async (c, gate) => {
    const { companyId, ...query } = c.req.valid("query");
    const actor = await gate(companyId);
    return c.json(await listPages(dbOf(c), actor, companyId, query), 200);
  },
);

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.readPage,
  route({
    operationId: "readWikiPage",
    tags,
    summary: "A page: its contents, its hash (a later write's expectedHash) and its backlinks (board or agent)",
    request: { query: PageQuery },
    responses: { 200: jsonContent(WikiPageContentSchema, "The page"), ...errors(400, 401, 403, 404, 503) },
  }),
  async (c, gate) => {
    const { companyId, ...query } = c.req.valid("query");
    const actor = await gate(companyId);
    return c.json(await readPage(c.env, dbOf(c), actor, companyId, query), 200);
  },
);

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.pageRevisions,
  route({
    operationId: "listWikiPageRevisions",
    tags,
    summary: "A page's revisions, newest first: writes and moves, with hashes, authors and runs (board or agent); no page there: 404",
    request: { query: RevisionsQuery },
    responses: { 200: jsonContent(WikiRevisionsSchema, "Revisions"), ...errors(400, 401, 403, 404, 503) },
  }),
  async (c, gate) => {
    const { companyId, ...query } = c.req.valid("query");
    const actor = await gate(companyId);
    return c.json(await listRevisions(dbOf(c), actor, companyId, query), 200);
  },
);

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.pageBacklinks,
  route({
    operationId: "listWikiBacklinks",
    tags,
    summary: "Pages linking to a page ([[wiki links]], relative markdown links, wiki/… mentions), whether or not it exists (board or agent)",
    request: { query: PageQuery },
    responses: { 200: jsonContent(WikiBacklinksSchema, "Backlinks"), ...errors(400, 401, 403, 404, 503) },
  }),
  async (c, gate) => {
    const { companyId, ...query } = c.req.valid("query");
    const actor = await gate(companyId);
    return c.json(await listBacklinks(dbOf(c), actor, companyId, query), 200);
  },
);

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.search,
  route({
    operationId: "searchWiki",
    tags,
    summary: "Full-text search over the space's pages and sources: every word must match, ranked best first (board or agent)",
    request: { query: WikiSearchQuery },
    responses: { 200: jsonContent(WikiSearchSchema, "Results"), ...errors(400, 401, 403, 404, 503) },
  }),
  async (c, gate) => {
    const { companyId, q, ...query } = c.req.valid("query");
    const actor = await gate(companyId);
    return c.json(await searchWiki(dbOf(c), actor, companyId, { ...query, query: q }), 200);
  },
);

mountPluginRoute(
  wikiRouter,
  WIKI_ROUTES.writePage,
  route({
    operationId: "writeWikiPage",
    tags,
    summary: "Write a whole page atomically (board): with expectedHash, a page changed since it was read is 409 with details.currentHash",
    description:
      "Creates or replaces the page at `path`, with a revision, its links, an operation and a wiki.page_written event. Of two writers holding the same expectedHash one wins; the other gets 409 — read the page again, merge, write with the new hash. An archived space is 409.",
    request: { body: jsonBody(WritePageSchema) },
    responses: { 200: jsonContent(WrittenPageSchema, "Written (or unchanged)"), ...errors(400, 401, 403, 404, 409, 503), ...jsonOnlyResponse },
  }),
  async (c, gate) => {
    const { companyId, ...input } = c.req.valid("json");
    const actor = await gate(companyId);
    return c.json(await runCompanyCommand(c.env, companyId, writePage, actor, input), 200);
  },
);

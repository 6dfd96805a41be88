// The knowledge-wiki plugin: its manifest, its scoped routes (src/routes/wiki.ts) and its agent
// tools. Every tool takes companyId, wikiId (default `default`) and spaceSlug (default
// `default`); reads are queries, writes are the wiki's commands run in the company object.
import { z } from "zod";
import { runCompanyCommand } from "../../company/client";
import type { CompanyCommand } from "../../company/command";
import type { PluginDefinition, PluginTool, ToolContext, PluginRouteDeclaration } from "../plugins/definition";
import { appendLog, deletePage, movePage, writePage } from "./pages";
import { listBacklinks, listPages, listSources, MAX_SEARCH_LIMIT, readPage, readSource, searchWiki } from "./queries";
import { hashOf } from "./bodies";
import { linkedPaths } from "./links";
import { INDEX_PATH, requirePagePath } from "./paths";
import { WIKI_ID_PATTERN } from "./space";
import { purgeWiki } from "./commands";
import { createDb, schema } from "../../db/client";

export const WIKI_PLUGIN_KEY = "knowledge-wiki";

/**
 * The wiki's scoped API routes (under /api/plugins/knowledge-wiki/api), each declared once: its
 * method, path and caller rule make the manifest's route list and the gate its route runs
 * (src/routes/wiki.ts mounts each with its schemas and handler).
 */
export const WIKI_ROUTES = {
  overview: { pluginKey: WIKI_PLUGIN_KEY, method: "GET", path: "/overview", auth: "board-or-agent" },
  bootstrap: { pluginKey: WIKI_PLUGIN_KEY, method: "POST", path: "/bootstrap", auth: "board" },
  captureSource: { pluginKey: WIKI_PLUGIN_KEY, method: "POST", path: "/sources", auth: "board-or-agent" },
  listSpaces: { pluginKey: WIKI_PLUGIN_KEY, method: "GET", path: "/spaces", auth: "board-or-agent" },
  createSpace: { pluginKey: WIKI_PLUGIN_KEY, method: "POST", path: "/spaces", auth: "board" },
  updateSpace: { pluginKey: WIKI_PLUGIN_KEY, method: "PATCH", path: "/spaces/:spaceSlug", auth: "board" },
  bootstrapSpace: { pluginKey: WIKI_PLUGIN_KEY, method: "POST", path: "/spaces/:spaceSlug/bootstrap", auth: "board" },
  archiveSpace: { pluginKey: WIKI_PLUGIN_KEY, method: "POST", path: "/spaces/:spaceSlug/archive", auth: "board" },
  listOperations: { pluginKey: WIKI_PLUGIN_KEY, method: "GET", path: "/operations", auth: "board-or-agent" },
  startQuery: { pluginKey: WIKI_PLUGIN_KEY, method: "POST", path: "/query-sessions", auth: "board" },
  fileAsPage: { pluginKey: WIKI_PLUGIN_KEY, method: "POST", path: "/file-as-page", auth: "board" },
  // Pages for board callers (the console), beside the agent tools. Reads are open to the company's
  // agents too: the same rows their tools read (board-only spaces still refuse them); agents write
  // through their tools, which carry their run and refuse the control files.
  listPages: { pluginKey: WIKI_PLUGIN_KEY, method: "GET", path: "/pages", auth: "board-or-agent" },
  readPage: { pluginKey: WIKI_PLUGIN_KEY, method: "GET", path: "/page", auth: "board-or-agent" },
  pageRevisions: { pluginKey: WIKI_PLUGIN_KEY, method: "GET", path: "/page/revisions", auth: "board-or-agent" },
  pageBacklinks: { pluginKey: WIKI_PLUGIN_KEY, method: "GET", path: "/page/backlinks", auth: "board-or-agent" },
  search: { pluginKey: WIKI_PLUGIN_KEY, method: "GET", path: "/search", auth: "board-or-agent" },
  writePage: { pluginKey: WIKI_PLUGIN_KEY, method: "POST", path: "/pages", auth: "board" },
} as const satisfies Record<string, PluginRouteDeclaration>;

const wikiArgs = {
  companyId: z.guid().describe("The company (the calling agent's own)"),
  wikiId: z.string().regex(WIKI_ID_PATTERN).optional().describe("The wiki (default `default`)"),
  spaceSlug: z.string().regex(WIKI_ID_PATTERN).optional().describe("The space (default `default`)"),
};
const pathArg = z.string().min(1).max(300).describe("Page path: a .md file under wiki/ (or AGENTS.md, IDEA.md)");
const contentsArg = z
  .string()
  .max(512 * 1024)
  .describe("The whole page, markdown");
const hashArg = z
  .string()
  .regex(/^[0-9a-f]{64}$/, "a SHA-256 hex digest")
  .describe("The hash read with the page: the write fails (409, with the current hash) if the page changed since");

function tool<P extends z.ZodObject>(definition: PluginTool<P>): PluginTool {
  return definition as unknown as PluginTool;
}

const ref = (p: { wikiId?: string; spaceSlug?: string }) => ({ wikiId: p.wikiId, spaceSlug: p.spaceSlug });
const write = <I, O, L>(ctx: ToolContext, command: CompanyCommand<I, O, L>, input: I) => runCompanyCommand(ctx.env, ctx.companyId, command, ctx.actor, input);

const writeSummary = (verb: string, r: { path: string; hash: string; previousHash: string | null; unchanged?: boolean; backlinks?: string[] }) =>
  `${r.unchanged ? "Unchanged" : verb} ${r.path} (hash ${r.hash}${r.previousHash && r.previousHash !== r.hash ? `, was ${r.previousHash}` : ""})${r.backlinks?.length ? `; linked from ${r.backlinks.join(", ")}` : ""}`;

const tools: PluginTool[] = [
  tool({
    name: "wiki_search",
    displayName: "Search Wiki",
    description: "Full-text search over wiki pages and captured sources (every word must match; ranked, best first).",
    parameters: z.object({
      ...wikiArgs,
      query: z.string().min(1).max(500),
      limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional().describe(`At most ${MAX_SEARCH_LIMIT} (default 10)`),
    }),
    async run(ctx, p) {
      const data = await searchWiki(ctx.db, ctx.actor, ctx.companyId, { ...ref(p), query: p.query, limit: p.limit });
      const content = data.results.length
        ? data.results.map((r, i) => `${i + 1}. [${r.kind}] ${r.path} — ${r.title}: ${r.snippet.replace(/\s+/g, " ")}`).join("\n")
        : `No page or source matches "${p.query}".`;
      return { content, data };
    },
  }),
  tool({
    name: "wiki_list_pages",
    displayName: "List Wiki Pages",
    description: "The wiki's pages (path, title, type, hash), by path.",
    parameters: z.object({
      ...wikiArgs,
      prefix: z.string().max(300).optional().describe("Only paths starting with this"),
      limit: z.number().int().min(1).max(1000).optional(),
    }),
    async run(ctx, p) {
      const data = await listPages(ctx.db, ctx.actor, ctx.companyId, { ...ref(p), prefix: p.prefix, limit: p.limit });
      return { content: data.pages.map((page) => `${page.path} — ${page.title}`).join("\n") || "The wiki has no pages yet.", data };
    },
  }),
  tool({
    name: "wiki_read_page",
    displayName: "Read Wiki Page",
    description: "A page's contents; data.hash is what a later write passes as expectedHash.",
    parameters: z.object({ ...wikiArgs, path: pathArg }),
    async run(ctx, p) {
      const data = await readPage(ctx.env, ctx.db, ctx.actor, ctx.companyId, { ...ref(p), path: p.path });
      return { content: data.contents, data };
    },
  }),
  tool({
    name: "wiki_write_page",
    displayName: "Write Wiki Page",
    description:
      "Write a whole page atomically. With expectedHash the write is refused (409, current hash in details) if the page changed since it was read. Agents may not write AGENTS.md or IDEA.md.",
    parameters: z.object({
      ...wikiArgs,
      path: pathArg,
      contents: contentsArg,
      expectedHash: hashArg.optional(),
      summary: z.string().max(500).optional(),
      title: z.string().max(200).optional(),
    }),
    async run(ctx, p) {
      const r = await write(ctx, writePage, {
        ...ref(p),
        path: p.path,
        contents: p.contents,
        expectedHash: p.expectedHash,
        summary: p.summary,
        title: p.title,
      });
      return {
        content: writeSummary(r.created ? "Created" : "Wrote", r),
        data: {
          hash: r.hash,
          previousHash: r.previousHash,
          revisionId: r.revisionId,
          backlinks: r.backlinks,
          links: r.links,
          path: r.path,
          created: r.created,
          unchanged: r.unchanged,
        },
      };
    },
  }),
  tool({
    name: "wiki_propose_patch",
    displayName: "Propose Wiki Patch",
    description: "What a write would do, without writing: the current and proposed hashes and the links the new contents make.",
    parameters: z.object({ ...wikiArgs, path: pathArg, contents: contentsArg, summary: z.string().max(500).optional() }),
    async run(ctx, p) {
      const path = requirePagePath(p.path);
      const current = await readPage(ctx.env, ctx.db, ctx.actor, ctx.companyId, { ...ref(p), path }).catch((err) => {
        if ((err as { status?: number }).status === 404) return null;
        throw err;
      });
      const proposedHash = hashOf(p.contents);
      const data = {
        path,
        exists: current !== null,
        currentHash: current?.hash ?? null,
        proposedHash,
        unchanged: current?.hash === proposedHash,
        currentLines: current ? current.contents.split("\n").length : 0,
        proposedLines: p.contents.split("\n").length,
        links: linkedPaths(path, p.contents),
        summary: p.summary ?? null,
      };
      const content = data.unchanged
        ? `No change to ${path}.`
        : `Proposed ${current ? "update" : "creation"} of ${path}: ${data.currentLines} → ${data.proposedLines} lines; write it with expectedHash ${data.currentHash ?? "(none: new page)"}.`;
      return { content, data };
    },
  }),
  tool({
    name: "wiki_list_sources",
    displayName: "List Wiki Sources",
    description: "Captured raw sources (rawPath, title, type, hash), newest first.",
    parameters: z.object({ ...wikiArgs, limit: z.number().int().min(1).max(1000).optional() }),
    async run(ctx, p) {
      const data = await listSources(ctx.db, ctx.actor, ctx.companyId, { ...ref(p), limit: p.limit });
      return { content: data.sources.map((s) => `${s.rawPath} — ${s.title}`).join("\n") || "No sources captured yet.", data };
    },
  }),
  tool({
    name: "wiki_read_source",
    displayName: "Read Wiki Source",
    description: "A captured raw source's text (rawPath under raw/).",
    parameters: z.object({ ...wikiArgs, rawPath: z.string().min(1).max(300) }),
    async run(ctx, p) {
      const data = await readSource(ctx.env, ctx.db, ctx.actor, ctx.companyId, { ...ref(p), rawPath: p.rawPath });
      return { content: data.contents, data };
    },
  }),
  tool({
    name: "wiki_list_backlinks",
    displayName: "List Wiki Backlinks",
    description: "Pages linking to a page ([[wiki links]], relative markdown links and wiki/… mentions).",
    parameters: z.object({ ...wikiArgs, path: pathArg }),
    async run(ctx, p) {
      const data = await listBacklinks(ctx.db, ctx.actor, ctx.companyId, { ...ref(p), path: p.path });
      return { content: data.backlinks.length ? data.backlinks.join("\n") : `No page links to ${data.path}.`, data };
    },
  }),
  tool({
    name: "wiki_update_index",
    displayName: "Update Wiki Index",
    description: "Replace wiki/index.md atomically (with expectedHash: refused with 409 if it changed since read).",
    parameters: z.object({ ...wikiArgs, contents: contentsArg, expectedHash: hashArg.optional() }),
    async run(ctx, p) {
      const r = await write(ctx, writePage, {
        ...ref(p),
        path: INDEX_PATH,
        contents: p.contents,
        expectedHash: p.expectedHash,
        operationType: "update_index" as const,
        summary: "index update",
      });
      return {
        content: writeSummary("Wrote", r),
        data: { hash: r.hash, previousHash: r.previousHash, revisionId: r.revisionId, backlinks: r.backlinks, links: r.links, path: r.path },
      };
    },
  }),
  tool({
    name: "wiki_append_log",
    displayName: "Append Wiki Log",
    description: "Append one entry to wiki/log.md (atomic: concurrent appends are all kept, in order).",
    parameters: z.object({ ...wikiArgs, entry: z.string().min(1).max(4000) }),
    async run(ctx, p) {
      const r = await write(ctx, appendLog, { ...ref(p), entry: p.entry });
      return {
        content: `Appended to ${r.path}: ${r.entry}`,
        data: { path: r.path, hash: r.hash, previousHash: r.previousHash, revisionId: r.revisionId, entry: r.entry },
      };
    },
  }),
  tool({
    name: "wiki_move_page",
    displayName: "Move Wiki Page",
    description: "Rename a page (its history and the links other pages make to the old path stay; its own relative links resolve from the new place).",
    parameters: z.object({ ...wikiArgs, path: pathArg, newPath: pathArg, expectedHash: hashArg.optional(), summary: z.string().max(500).optional() }),
    async run(ctx, p) {
      const r = await write(ctx, movePage, { ...ref(p), path: p.path, newPath: p.newPath, expectedHash: p.expectedHash, summary: p.summary });
      return { content: `Moved ${r.previousPath} to ${r.path}`, data: r };
    },
  }),
  tool({
    name: "wiki_delete_page",
    displayName: "Delete Wiki Page",
    description: "Delete a page (its revisions are kept; its links stop counting as backlinks).",
    parameters: z.object({ ...wikiArgs, path: pathArg, expectedHash: hashArg.optional(), summary: z.string().max(500).optional() }),
    async run(ctx, p) {
      const r = await write(ctx, deletePage, { ...ref(p), path: p.path, expectedHash: p.expectedHash, summary: p.summary });
      return { content: `Deleted ${r.path}`, data: r };
    },
  }),
];

export const knowledgeWikiPlugin: PluginDefinition = {
  key: WIKI_PLUGIN_KEY,
  packageName: "@agent-control-plane/plugin-knowledge-wiki",
  version: "1.0.0",
  displayName: "Knowledge Wiki",
  description:
    "A shared, durable company memory: markdown pages with revisions, captured sources, full-text search, backlinks and agent tools; a maintainer agent answers questions from it.",
  capabilities: [
    "api.routes.register",
    "agent.tools.register",
    "issues.create",
    "agents.managed",
    "projects.managed",
    "routines.managed",
    "skills.managed",
    "activity.log.write",
    "events.emit",
  ],
  apiRoutes: Object.values(WIKI_ROUTES),
  tools,
  activationProblem: (env) => (env.FILES ? null : "The FILES R2 binding is missing: the wiki stores page and source bodies in R2"),
  async purgeData(env, actor) {
    const db = createDb(env.DB);
    const companies = await db
      .selectDistinct({ id: schema.wikiSpaces.companyId })
      .from(schema.wikiSpaces)
      .union(db.selectDistinct({ id: schema.wikiOperations.companyId }).from(schema.wikiOperations));
    for (const { id } of companies) await runCompanyCommand(env, id, purgeWiki, actor, {});
    return { companies: companies.length };
  },
};

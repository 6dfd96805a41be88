// Plugins (instance-wide: which first-party plugin this instance has installed, in which status)
// and the knowledge wiki's tables (company-scoped: spaces, pages with revisions and links, captured
// sources, operations, query sessions, and the resources a bootstrap manages). Page and source
// bodies live in R2 (content-addressed); their text is also in the FTS5 search indexes
// `wiki_page_search` / `wiki_source_search` (migrations/0018_plugins_wiki.sql, no drizzle tables).
import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import { createdAt, json, updatedAt } from "./columns";
import { companies } from "./companies";
import { ACTOR_TYPES } from "./activity";
import { inDirectory } from "./homes";

export const PLUGIN_STATUSES = ["installed", "ready", "upgrade_pending", "disabled", "error"] as const;

export const plugins = inDirectory(
  sqliteTable(
    "plugins",
    {
      id: text("id").primaryKey(),
      pluginKey: text("plugin_key").notNull(),
      packageName: text("package_name").notNull(),
      version: text("version").notNull(),
      status: text("status", { enum: PLUGIN_STATUSES }).notNull(),
      /** Why the plugin is in `error` (null otherwise). */
      lastError: text("last_error"),
      /** The manifest of the installed version (what the instance agreed to run). */
      manifest: json<Record<string, unknown>>("manifest").notNull(),
      installedAt: text("installed_at").notNull(),
      updatedAt: updatedAt(),
    },
    (t) => [uniqueIndex("plugins_plugin_key_uq").on(t.pluginKey)],
  ),
);

export const WIKI_SPACE_STATUSES = ["active", "archived"] as const;
/** Who reaches a space: everyone with access to the company, or board users only. */
export const WIKI_ACCESS_SCOPES = ["company", "board"] as const;

/** What a bootstrap of a wiki created and manages (one row per company and wiki). */
export const wikiInstances = sqliteTable(
  "wiki_instances",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    wikiId: text("wiki_id").notNull(),
    managedAgentId: text("managed_agent_id"),
    managedProjectId: text("managed_project_id"),
    managedSkillIds: json<string[]>("managed_skill_ids").notNull(),
    managedRoutineIds: json<string[]>("managed_routine_ids").notNull(),
    bootstrappedAt: text("bootstrapped_at").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("wiki_instances_company_wiki_uq").on(t.companyId, t.wikiId)],
);

export const wikiSpaces = sqliteTable(
  "wiki_spaces",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    wikiId: text("wiki_id").notNull(),
    slug: text("slug").notNull(),
    displayName: text("display_name").notNull(),
    accessScope: text("access_scope", { enum: WIKI_ACCESS_SCOPES }).notNull(),
    status: text("status", { enum: WIKI_SPACE_STATUSES }).notNull(),
    settings: json<Record<string, unknown>>("settings").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("wiki_spaces_company_wiki_slug_uq").on(t.companyId, t.wikiId, t.slug)],
);

/** The columns of a row inside one wiki space of one company (fresh builders per table). */
const inSpace = () => ({
  companyId: text("company_id")
    .notNull()
    .references(() => companies.id, { onDelete: "cascade" }),
  spaceId: text("space_id")
    .notNull()
    .references(() => wikiSpaces.id, { onDelete: "cascade" }),
});

export const WIKI_PAGE_TYPES = ["control", "index", "log", "source", "project", "area", "entity", "concept", "synthesis", "page"] as const;

/** The current state of each page: its path, hash and latest revision (the body is the R2 object). */
export const wikiPages = sqliteTable(
  "wiki_pages",
  {
    id: text("id").primaryKey(),
    ...inSpace(),
    path: text("path").notNull(),
    title: text("title").notNull(),
    pageType: text("page_type", { enum: WIKI_PAGE_TYPES }).notNull(),
    /** SHA-256 (hex) of the UTF-8 contents: what `expectedHash` is compared with. */
    hash: text("hash").notNull(),
    revisionId: text("revision_id").notNull(),
    objectKey: text("object_key").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("wiki_pages_space_path_uq").on(t.spaceId, t.path), index("wiki_pages_company_space_updated_idx").on(t.companyId, t.spaceId, t.updatedAt)],
);

export const WIKI_REVISION_CHANGES = ["write", "move", "delete"] as const;

/** Every change of a page, kept after the page is deleted or moved (immutable). */
export const wikiPageRevisions = sqliteTable(
  "wiki_page_revisions",
  {
    id: text("id").primaryKey(),
    ...inSpace(),
    pageId: text("page_id").notNull(),
    path: text("path").notNull(),
    change: text("change", { enum: WIKI_REVISION_CHANGES }).notNull(),
    /** Null for a delete. */
    hash: text("hash"),
    previousHash: text("previous_hash"),
    objectKey: text("object_key"),
    summary: text("summary"),
    operationId: text("operation_id").notNull(),
    createdByAgentId: text("created_by_agent_id"),
    createdByUserId: text("created_by_user_id"),
    runId: text("run_id"),
    createdAt: createdAt(),
  },
  (t) => [index("wiki_page_revisions_page_idx").on(t.pageId, t.createdAt)],
);

/** The links a page's current contents make, resolved to page paths (backlinks are read from here). */
export const wikiLinks = sqliteTable(
  "wiki_links",
  {
    ...inSpace(),
    sourcePageId: text("source_page_id")
      .notNull()
      .references(() => wikiPages.id, { onDelete: "cascade" }),
    targetPath: text("target_path").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sourcePageId, t.targetPath] }), index("wiki_links_space_target_idx").on(t.spaceId, t.targetPath)],
);

export const WIKI_SOURCE_TYPES = ["manual", "url", "issue", "comment", "document", "cursor_window", "routine_run"] as const;

/** Captured raw sources (immutable): `raw/…` paths, their hash and R2 object. */
export const wikiSources = sqliteTable(
  "wiki_sources",
  {
    id: text("id").primaryKey(),
    ...inSpace(),
    rawPath: text("raw_path").notNull(),
    title: text("title").notNull(),
    sourceType: text("source_type", { enum: WIKI_SOURCE_TYPES }).notNull(),
    url: text("url"),
    hash: text("hash").notNull(),
    objectKey: text("object_key").notNull(),
    sizeChars: integer("size_chars").notNull(),
    metadata: json<Record<string, unknown>>("metadata"),
    createdByAgentId: text("created_by_agent_id"),
    createdByUserId: text("created_by_user_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("wiki_sources_space_raw_path_uq").on(t.spaceId, t.rawPath),
    index("wiki_sources_company_space_created_idx").on(t.companyId, t.spaceId, t.createdAt),
  ],
);

export const WIKI_OPERATION_TYPES = [
  "bootstrap",
  "space_create",
  "space_update",
  "space_archive",
  "space_bootstrap",
  "capture_source",
  "write_page",
  "move_page",
  "delete_page",
  "update_index",
  "append_log",
  "query",
  "file_as_page",
] as const;
export const WIKI_OPERATION_STATUSES = ["running", "succeeded", "failed", "blocked"] as const;

/** Every write to a wiki, and every query session, as one operation row. */
export const wikiOperations = sqliteTable(
  "wiki_operations",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    wikiId: text("wiki_id").notNull(),
    spaceId: text("space_id").references(() => wikiSpaces.id, { onDelete: "cascade" }),
    operationType: text("operation_type", { enum: WIKI_OPERATION_TYPES }).notNull(),
    status: text("status", { enum: WIKI_OPERATION_STATUSES }).notNull(),
    summary: text("summary"),
    details: json<Record<string, unknown>>("details"),
    issueId: text("issue_id"),
    runId: text("run_id"),
    actorType: text("actor_type", { enum: ACTOR_TYPES }).notNull(),
    actorId: text("actor_id").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("wiki_operations_company_created_idx").on(t.companyId, t.createdAt)],
);

export const WIKI_QUERY_STATUSES = ["running", "answered", "failed", "blocked", "filed"] as const;

/**
 * A question put to the wiki maintainer: an operation issue assigned to it; the run that answers
 * it ends the session (triggers in migrations/0018_plugins_wiki.sql, whatever path ends the run).
 */
export const wikiQuerySessions = sqliteTable(
  "wiki_query_sessions",
  {
    id: text("id").primaryKey(),
    ...inSpace(),
    operationId: text("operation_id").notNull(),
    question: text("question").notNull(),
    title: text("title").notNull(),
    issueId: text("issue_id"),
    runId: text("run_id"),
    status: text("status", { enum: WIKI_QUERY_STATUSES }).notNull(),
    answer: text("answer"),
    filedPath: text("filed_path"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("wiki_query_sessions_issue_idx").on(t.issueId)],
);

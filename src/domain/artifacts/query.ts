// The company artifact projection: documents, attachments and work products as one
// UNION ALL query, filtered, ordered by (updatedAt, id) descending and paged by keyset,
// so a cursor stays valid while new artifacts arrive. Grouping by task or parent task
// pages over groups the same way.
// Still raw SQL (not converted yet): a UNION ALL of three differently shaped tables with computed
// columns, filtered, grouped and keyset-paged as a derived table. Every value is bound; the
// statement is assembled only in this module. Converting it to drizzle's unionAll is open work.
import { badRequest } from "../errors";
import { base64url } from "../../crypto/random";

export type ArtifactKind = "image" | "video" | "text" | "document" | "file" | "all";
export type ArtifactGroupBy = "none" | "task" | "parent_task";

export interface ArtifactQuery {
  companyId: string;
  kind: ArtifactKind;
  projectId?: string;
  q?: string;
  groupBy: ArtifactGroupBy;
  groupIssueId?: string;
  limit: number;
  cursor?: string;
}

/** mediaKind from a content type (SQL, over column expression `ct`). */
const mediaKindSql = (ct: string) => `CASE
  WHEN ${ct} IS NULL OR ${ct} = '' THEN ''
  WHEN ${ct} LIKE 'image/%' THEN 'image'
  WHEN ${ct} LIKE 'video/%' THEN 'video'
  WHEN ${ct} LIKE 'text/markdown%' OR ${ct} LIKE 'application/pdf%' OR ${ct} LIKE 'application/msword%'
    OR ${ct} LIKE 'application/rtf%' OR ${ct} LIKE 'application/vnd.openxmlformats-officedocument.%'
    OR ${ct} LIKE 'application/vnd.oasis.opendocument.%' OR ${ct} LIKE 'application/vnd.ms-%' THEN 'document'
  WHEN ${ct} LIKE 'text/%' OR ${ct} LIKE 'application/json%' OR ${ct} LIKE 'application/xml%'
    OR ${ct} LIKE 'application/yaml%' OR ${ct} LIKE 'application/x-yaml%' THEN 'text'
  ELSE 'file' END`;

/** Characters of a document body shown as its preview. */
const PREVIEW_CHARS = 280;

/** One row per artifact of the company (binds the company id once per branch). */
const UNION_SQL = `
  SELECT 'document:' || d.id AS id, 'document' AS source, 'document' AS media_kind,
         COALESCE(d.title, d.key) AS title, substr(r.body, 1, ${PREVIEW_CHARS}) AS preview_text,
         'text/markdown' AS content_type,
         '/api/issues/' || d.issue_id || '/documents/' || d.key AS content_path,
         '/api/issues/' || d.issue_id || '/documents/' || d.key AS open_path,
         NULL AS download_path,
         d.issue_id AS issue_id, d.created_by_agent_id AS agent_id, d.updated_at AS updated_at,
         '#document-' || d.key AS anchor
    FROM issue_documents d JOIN issue_document_revisions r ON r.id = d.latest_revision_id
   WHERE d.company_id = ?
  UNION ALL
  SELECT 'attachment:' || a.id, 'attachment', ${mediaKindSql("a.content_type")},
         COALESCE(a.original_filename, 'attachment'), NULL, a.content_type,
         '/api/attachments/' || a.id || '/content',
         '/api/attachments/' || a.id || '/content',
         '/api/attachments/' || a.id || '/content?download=1',
         a.issue_id, a.created_by_agent_id, a.created_at, '#attachment-' || a.id
    FROM issue_attachments a
   WHERE a.company_id = ?
  UNION ALL
  SELECT 'work_product:' || w.id, 'work_product', ${mediaKindSql("w.content_type")},
         w.title, w.preview_text, w.content_type, NULL, w.url, NULL,
         w.issue_id, w.created_by_agent_id, w.updated_at, '#work-product-' || w.id
    FROM work_products w
   WHERE w.company_id = ?`;

interface ArtifactRow {
  id: string;
  source: "document" | "attachment" | "work_product";
  media_kind: string;
  title: string;
  preview_text: string | null;
  content_type: string | null;
  content_path: string | null;
  open_path: string | null;
  download_path: string | null;
  issue_id: string;
  updated_at: string;
  anchor: string;
  identifier: string;
  issue_title: string;
  project_id: string | null;
  project_name: string | null;
  agent_id: string | null;
  agent_name: string | null;
  group_issue_id: string;
}

export function artifactView(row: ArtifactRow) {
  return {
    id: row.id,
    source: row.source,
    mediaKind: row.media_kind as "image" | "video" | "text" | "document" | "file" | "",
    title: row.title,
    previewText: row.preview_text ?? null,
    contentType: row.content_type ?? null,
    contentPath: row.content_path ?? null,
    openPath: row.open_path ?? null,
    downloadPath: row.download_path ?? null,
    issue: { id: row.issue_id, identifier: row.identifier, title: row.issue_title },
    project: row.project_id ? { id: row.project_id, name: row.project_name ?? "" } : null,
    createdByAgent: row.agent_id && row.agent_name !== null ? { id: row.agent_id, name: row.agent_name } : null,
    updatedAt: row.updated_at,
    href: `/issues/${row.identifier}${row.anchor}`,
  };
}
export type ArtifactView = ReturnType<typeof artifactView>;

// ---- cursors: base64url(JSON [mode, updatedAt, id]) ----

function encodeCursor(mode: string, updatedAt: string, id: string) {
  return base64url(new TextEncoder().encode(JSON.stringify([mode, updatedAt, id])));
}

function decodeCursor(cursor: string, mode: string): { updatedAt: string; id: string } {
  try {
    const padded = cursor.replace(/-/g, "+").replace(/_/g, "/");
    const json = new TextDecoder().decode(Uint8Array.from(atob(padded), (ch) => ch.charCodeAt(0)));
    const value = JSON.parse(json);
    if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === "string")) {
      if (value[0] !== mode) throw badRequest("cursor belongs to a different kind of listing (groupBy changed)");
      return { updatedAt: value[1], id: value[2] };
    }
  } catch (err) {
    if (err instanceof Error && err.message.startsWith("cursor belongs")) throw err;
  }
  throw badRequest("Invalid cursor");
}

// ---- filters ----

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

function groupKeySql(groupBy: ArtifactGroupBy) {
  return groupBy === "parent_task" ? "COALESCE(i.parent_id, i.id)" : "i.id";
}

/** The filtered artifact rows (joined with issue, project, agent and the group issue id) as a CTE body. */
function filteredSql(query: ArtifactQuery, groupBy: ArtifactGroupBy, params: unknown[]) {
  // Three for the union's branches, one for the issue join.
  params.push(query.companyId, query.companyId, query.companyId, query.companyId);
  const where = ["i.hidden_at IS NULL"];
  if (query.kind !== "all") {
    where.push("x.media_kind = ?");
    params.push(query.kind);
  }
  if (query.projectId) {
    where.push("i.project_id = ?");
    params.push(query.projectId);
  }
  if (query.q) {
    const pattern = `%${escapeLike(query.q)}%`;
    where.push(
      "(x.title LIKE ? ESCAPE '\\' OR x.preview_text LIKE ? ESCAPE '\\' OR i.identifier LIKE ? ESCAPE '\\' OR i.title LIKE ? ESCAPE '\\')",
    );
    params.push(pattern, pattern, pattern, pattern);
  }
  return `
    SELECT x.*, i.identifier AS identifier, i.title AS issue_title, p.id AS project_id, p.name AS project_name,
           ag.name AS agent_name, ${groupKeySql(groupBy)} AS group_issue_id
      FROM (${UNION_SQL}) x
      JOIN issues i ON i.id = x.issue_id AND i.company_id = ?
      LEFT JOIN projects p ON p.id = i.project_id
      LEFT JOIN agents ag ON ag.id = x.agent_id
     WHERE ${where.join(" AND ")}`;
}

function buildFiltered(query: ArtifactQuery, groupBy: ArtifactGroupBy) {
  const params: unknown[] = [];
  const sql = filteredSql(query, groupBy, params);
  return { sql, params };
}

async function listArtifactRows(db: D1Database, query: ArtifactQuery, mode: string, groupIssueId?: string) {
  const groupBy = query.groupBy === "none" ? "task" : query.groupBy;
  const { sql, params } = buildFiltered(query, groupBy);
  const outer: string[] = [];
  if (groupIssueId) {
    outer.push("f.group_issue_id = ?");
    params.push(groupIssueId);
  }
  if (query.cursor) {
    const c = decodeCursor(query.cursor, mode);
    outer.push("(f.updated_at < ? OR (f.updated_at = ? AND f.id < ?))");
    params.push(c.updatedAt, c.updatedAt, c.id);
  }
  params.push(query.limit + 1);
  const statement = `WITH f AS (${sql}) SELECT * FROM f ${outer.length ? `WHERE ${outer.join(" AND ")}` : ""}
    ORDER BY f.updated_at DESC, f.id DESC LIMIT ?`;
  const { results } = await db.prepare(statement).bind(...params).all<ArtifactRow>();
  const page = results.slice(0, query.limit);
  const last = page[page.length - 1];
  const nextCursor = results.length > query.limit && last ? encodeCursor(mode, last.updated_at, last.id) : null;
  return { artifacts: page.map(artifactView), nextCursor };
}

/** How many artifacts of each group are shown inside the group object. */
const PREVIEW_ARTIFACTS_PER_GROUP = 3;

interface GroupRow {
  group_issue_id: string;
  count: number;
  updated_at: string;
  media_kinds: string | null;
  identifier: string;
  title: string;
}

async function listGroups(db: D1Database, query: ArtifactQuery, options: { onlyIssueId?: string; paged: boolean }) {
  const groupBy = query.groupBy === "none" ? "task" : query.groupBy;
  const mode = `groups:${groupBy}`;
  const { sql, params } = buildFiltered(query, groupBy);
  const having: string[] = [];
  const where: string[] = [];
  if (options.onlyIssueId) {
    where.push("f.group_issue_id = ?");
    params.push(options.onlyIssueId);
  }
  if (options.paged && query.cursor) {
    const c = decodeCursor(query.cursor, mode);
    having.push("(MAX(f.updated_at) < ? OR (MAX(f.updated_at) = ? AND f.group_issue_id < ?))");
    params.push(c.updatedAt, c.updatedAt, c.id);
  }
  const limit = options.paged ? query.limit + 1 : 1;
  params.push(limit);
  const statement = `WITH f AS (${sql})
    SELECT f.group_issue_id AS group_issue_id, COUNT(*) AS count, MAX(f.updated_at) AS updated_at,
           GROUP_CONCAT(DISTINCT f.media_kind) AS media_kinds, gi.identifier AS identifier, gi.title AS title
      FROM f JOIN issues gi ON gi.id = f.group_issue_id
     ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
     GROUP BY f.group_issue_id
     ${having.length ? `HAVING ${having.join(" AND ")}` : ""}
     ORDER BY MAX(f.updated_at) DESC, f.group_issue_id DESC LIMIT ?`;
  const { results } = await db.prepare(statement).bind(...params).all<GroupRow>();
  const page = options.paged ? results.slice(0, query.limit) : results;
  const last = page[page.length - 1];
  const nextCursor = options.paged && results.length > query.limit && last ? encodeCursor(mode, last.updated_at, last.group_issue_id) : null;

  // The newest few artifacts of each group on the page, in one windowed query.
  const previews = new Map<string, ArtifactView[]>();
  if (page.length) {
    const p = buildFiltered(query, groupBy);
    p.params.push(JSON.stringify(page.map((g) => g.group_issue_id)), PREVIEW_ARTIFACTS_PER_GROUP);
    const previewSql = `WITH f AS (${p.sql}),
      ranked AS (SELECT f.*, ROW_NUMBER() OVER (PARTITION BY f.group_issue_id ORDER BY f.updated_at DESC, f.id DESC) AS rn
                   FROM f WHERE f.group_issue_id IN (SELECT value FROM json_each(?)))
      SELECT * FROM ranked WHERE rn <= ? ORDER BY updated_at DESC, id DESC`;
    const { results: rows } = await db.prepare(previewSql).bind(...p.params).all<ArtifactRow>();
    for (const row of rows) {
      const list = previews.get(row.group_issue_id) ?? [];
      list.push(artifactView(row));
      previews.set(row.group_issue_id, list);
    }
  }
  const groups = page.map((g) => ({
    id: `${groupBy}:${g.group_issue_id}`,
    groupBy,
    issue: { id: g.group_issue_id, identifier: g.identifier, title: g.title },
    title: g.title,
    count: Number(g.count),
    mediaKinds: (g.media_kinds ?? "").split(",").filter((k) => k !== "").sort(),
    previewArtifacts: previews.get(g.group_issue_id) ?? [],
    updatedAt: g.updated_at,
    href: `/issues/${g.identifier}`,
  }));
  return { groups, nextCursor };
}
export type ArtifactGroup = Awaited<ReturnType<typeof listGroups>>["groups"][number];

/** The artifacts envelope: { artifacts, nextCursor }, { groups, nextCursor } or { artifacts, nextCursor, selectedGroup }. */
export async function queryArtifacts(db: D1Database, query: ArtifactQuery) {
  if (query.groupIssueId) {
    const groupBy = query.groupBy === "none" ? "task" : query.groupBy;
    const scoped = { ...query, groupBy } as ArtifactQuery;
    const [{ artifacts, nextCursor }, { groups }] = await Promise.all([
      listArtifactRows(db, scoped, `group:${groupBy}:${query.groupIssueId}`, query.groupIssueId),
      listGroups(db, { ...scoped, cursor: undefined }, { onlyIssueId: query.groupIssueId, paged: false }),
    ]);
    return { artifacts, nextCursor, selectedGroup: groups[0] ?? null };
  }
  if (query.groupBy !== "none") return listGroups(db, query, { paged: true });
  return listArtifactRows(db, query, "artifacts");
}

// The company artifact projection: documents, attachments and work products as one
// UNION ALL query, filtered, ordered by (updatedAt, id) descending and paged by keyset,
// so a cursor stays valid while new artifacts arrive. Grouping by task or parent task
// pages over groups the same way.
//
// Built with drizzle: the three branches are one `unionAll`, used as the subquery `x`; the
// filtered rows (joined with issue, project and agent) are the CTE `f`. The `sql` template is
// used only for what drizzle has no builder for: string concatenation, COALESCE, CASE, substr,
// LIKE … ESCAPE, GROUP_CONCAT(DISTINCT) and ROW_NUMBER() OVER.
//
// Every selected expression has an alias of its own (artifact_*, group_*): drizzle refers to a
// subquery's or CTE's aliased field by its bare alias (`"artifact_title"`, not `"f"."title"`),
// so a name shared with a joined table (issues.title, agents.id…) would be ambiguous; and D1
// batch results are keyed by column name, where equal names would overwrite each other.
import { and, count, desc, eq, isNull, lt, lte, max, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { schema, type Db } from "../../db/client";
import { inIds } from "../../db/id-list";
import { badRequest } from "../errors";
import { base64url } from "../../crypto/random";

export type ArtifactKind = "image" | "video" | "text" | "document" | "file" | "all";
export type ArtifactGroupBy = "none" | "task" | "parent_task";
type ArtifactSource = "document" | "attachment" | "work_product";
type MediaKind = "image" | "video" | "text" | "document" | "file" | "";

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

const { issueDocuments: d, issueDocumentRevisions: r, issueAttachments: a, workProducts: w, issues: i, projects: p, agents: ag } = schema;

/** mediaKind from a content type column. */
const mediaKindOf = (ct: SQLiteColumn) => sql<MediaKind>`CASE
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

/** One artifact branch's values, in the union's column order. */
interface BranchValues {
  id: SQL<string>;
  source: SQL<ArtifactSource>;
  mediaKind: SQL<MediaKind>;
  title: SQL<string>;
  previewText: SQL<string | null>;
  contentType: SQL<string | null>;
  contentPath: SQL<string | null>;
  openPath: SQL<string | null>;
  downloadPath: SQL<string | null>;
  issueId: SQL<string>;
  agentId: SQL<string | null>;
  updatedAt: SQL<string>;
  anchor: SQL<string>;
}

/** The selection of one union branch: the same keys, order and aliases in every branch. */
const branch = (v: BranchValues) => ({
  id: v.id.as("artifact_id"),
  source: v.source.as("artifact_source"),
  mediaKind: v.mediaKind.as("artifact_media_kind"),
  title: v.title.as("artifact_title"),
  previewText: v.previewText.as("artifact_preview_text"),
  contentType: v.contentType.as("artifact_content_type"),
  contentPath: v.contentPath.as("artifact_content_path"),
  openPath: v.openPath.as("artifact_open_path"),
  downloadPath: v.downloadPath.as("artifact_download_path"),
  issueId: v.issueId.as("artifact_issue_id"),
  agentId: v.agentId.as("artifact_agent_id"),
  updatedAt: v.updatedAt.as("artifact_updated_at"),
  anchor: v.anchor.as("artifact_anchor"),
});

/** One row per artifact of the company (binds the company id once per branch). */
function unionOfArtifacts(db: Db, companyId: string) {
  const documentPath = () => sql<string>`'/api/issues/' || ${d.issueId} || '/documents/' || ${d.key}`;
  const attachmentPath = () => sql<string>`'/api/attachments/' || ${a.id} || '/content'`;
  const documents = db
    .select(
      branch({
        id: sql`'document:' || ${d.id}`,
        source: sql`'document'`,
        mediaKind: sql`'document'`,
        title: sql`COALESCE(${d.title}, ${d.key})`,
        previewText: sql`substr(${r.body}, 1, ${PREVIEW_CHARS})`,
        contentType: sql`'text/markdown'`,
        contentPath: documentPath(),
        openPath: documentPath(),
        downloadPath: sql`NULL`,
        issueId: sql`${d.issueId}`,
        agentId: sql`${d.createdByAgentId}`,
        updatedAt: sql`${d.updatedAt}`,
        anchor: sql`'#document-' || ${d.key}`,
      }),
    )
    .from(d)
    .innerJoin(r, eq(r.id, d.latestRevisionId))
    .where(eq(d.companyId, companyId));
  const attachments = db
    .select(
      branch({
        id: sql`'attachment:' || ${a.id}`,
        source: sql`'attachment'`,
        mediaKind: mediaKindOf(a.contentType),
        title: sql`COALESCE(${a.originalFilename}, 'attachment')`,
        previewText: sql`NULL`,
        contentType: sql`${a.contentType}`,
        contentPath: attachmentPath(),
        openPath: attachmentPath(),
        downloadPath: sql`'/api/attachments/' || ${a.id} || '/content?download=1'`,
        issueId: sql`${a.issueId}`,
        agentId: sql`${a.createdByAgentId}`,
        updatedAt: sql`${a.createdAt}`,
        anchor: sql`'#attachment-' || ${a.id}`,
      }),
    )
    .from(a)
    .where(eq(a.companyId, companyId));
  const products = db
    .select(
      branch({
        id: sql`'work_product:' || ${w.id}`,
        source: sql`'work_product'`,
        mediaKind: mediaKindOf(w.contentType),
        title: sql`${w.title}`,
        previewText: sql`${w.previewText}`,
        contentType: sql`${w.contentType}`,
        contentPath: sql`NULL`,
        openPath: sql`${w.url}`,
        downloadPath: sql`NULL`,
        issueId: sql`${w.issueId}`,
        agentId: sql`${w.createdByAgentId}`,
        updatedAt: sql`${w.updatedAt}`,
        anchor: sql`'#work-product-' || ${w.id}`,
      }),
    )
    .from(w)
    .where(eq(w.companyId, companyId));
  return documents.unionAll(attachments).unionAll(products).as("x");
}

// ---- filters ----

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
/** `expr LIKE pattern ESCAPE '\'` (drizzle's like() has no ESCAPE clause). */
const likeEscaped = (expr: SQLWrapper, pattern: string) => sql`${expr} LIKE ${pattern} ESCAPE '\\'`;

/** The filtered artifact rows (joined with issue, project, agent and the group issue id) as the CTE `f`. */
function filtered(db: Db, query: ArtifactQuery, groupBy: ArtifactGroupBy) {
  const x = unionOfArtifacts(db, query.companyId);
  const where: SQL[] = [isNull(i.hiddenAt)];
  if (query.kind !== "all") where.push(eq(x.mediaKind, query.kind));
  if (query.projectId) where.push(eq(i.projectId, query.projectId));
  if (query.q) {
    const pattern = `%${escapeLike(query.q)}%`;
    where.push(or(likeEscaped(x.title, pattern), likeEscaped(x.previewText, pattern), likeEscaped(i.identifier, pattern), likeEscaped(i.title, pattern))!);
  }
  const groupKey = groupBy === "parent_task" ? sql<string>`COALESCE(${i.parentId}, ${i.id})` : sql<string>`${i.id}`;
  return db.$with("f").as(
    db
      .select({
        ...x._.selectedFields,
        issueIdentifier: sql<string>`${i.identifier}`.as("artifact_issue_identifier"),
        issueTitle: sql<string>`${i.title}`.as("artifact_issue_title"),
        projectId: sql<string | null>`${p.id}`.as("artifact_project_id"),
        projectName: sql<string | null>`${p.name}`.as("artifact_project_name"),
        agentName: sql<string | null>`${ag.name}`.as("artifact_agent_name"),
        groupIssueId: groupKey.as("artifact_group_issue_id"),
      })
      .from(x)
      .innerJoin(i, and(eq(i.id, x.issueId), eq(i.companyId, query.companyId)))
      .leftJoin(p, eq(p.id, i.projectId))
      .leftJoin(ag, eq(ag.id, x.agentId))
      .where(and(...where)),
  );
}

interface ArtifactRow {
  id: string;
  source: ArtifactSource;
  mediaKind: MediaKind;
  title: string;
  previewText: string | null;
  contentType: string | null;
  contentPath: string | null;
  openPath: string | null;
  downloadPath: string | null;
  issueId: string;
  agentId: string | null;
  updatedAt: string;
  anchor: string;
  issueIdentifier: string;
  issueTitle: string;
  projectId: string | null;
  projectName: string | null;
  agentName: string | null;
  groupIssueId: string;
}

export function artifactView(row: ArtifactRow) {
  return {
    id: row.id,
    source: row.source,
    mediaKind: row.mediaKind,
    title: row.title,
    previewText: row.previewText ?? null,
    contentType: row.contentType ?? null,
    contentPath: row.contentPath ?? null,
    openPath: row.openPath ?? null,
    downloadPath: row.downloadPath ?? null,
    issue: { id: row.issueId, identifier: row.issueIdentifier, title: row.issueTitle },
    project: row.projectId ? { id: row.projectId, name: row.projectName ?? "" } : null,
    createdByAgent: row.agentId && row.agentName !== null ? { id: row.agentId, name: row.agentName } : null,
    updatedAt: row.updatedAt,
    href: `/issues/${row.issueIdentifier}${row.anchor}`,
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

/** `(updatedAt, id) < (cursor.updatedAt, cursor.id)`: the rows after a keyset cursor, newest first. */
const after = (updatedAt: SQLWrapper, id: SQLWrapper, c: { updatedAt: string; id: string }) =>
  or(lt(updatedAt, c.updatedAt), and(eq(updatedAt, c.updatedAt), lt(id, c.id)))!;

async function listArtifactRows(db: Db, query: ArtifactQuery, mode: string, groupIssueId?: string) {
  const groupBy = query.groupBy === "none" ? "task" : query.groupBy;
  const f = filtered(db, query, groupBy);
  const where: SQL[] = [];
  if (groupIssueId) where.push(eq(f.groupIssueId, groupIssueId));
  if (query.cursor) where.push(after(f.updatedAt, f.id, decodeCursor(query.cursor, mode)));
  const results: ArtifactRow[] = await db
    .with(f)
    .select()
    .from(f)
    .where(and(...where))
    .orderBy(desc(f.updatedAt), desc(f.id))
    .limit(query.limit + 1);
  const page = results.slice(0, query.limit);
  const last = page[page.length - 1];
  const nextCursor = results.length > query.limit && last ? encodeCursor(mode, last.updatedAt, last.id) : null;
  return { artifacts: page.map(artifactView), nextCursor };
}

/** How many artifacts of each group are shown inside the group object. */
const PREVIEW_ARTIFACTS_PER_GROUP = 3;

async function listGroups(db: Db, query: ArtifactQuery, options: { onlyIssueId?: string; paged: boolean }) {
  const groupBy = query.groupBy === "none" ? "task" : query.groupBy;
  const mode = `groups:${groupBy}`;
  const f = filtered(db, query, groupBy);
  const gi = alias(i, "gi");
  const newest = max(f.updatedAt);
  const where: SQL[] = [];
  const having: SQL[] = [];
  if (options.onlyIssueId) where.push(eq(f.groupIssueId, options.onlyIssueId));
  if (options.paged && query.cursor) having.push(after(newest, f.groupIssueId, decodeCursor(query.cursor, mode)));
  const results = await db
    .with(f)
    .select({
      groupIssueId: f.groupIssueId,
      count: count().as("group_count"),
      updatedAt: sql<string>`${newest}`.as("group_updated_at"),
      mediaKinds: sql<string | null>`GROUP_CONCAT(DISTINCT ${f.mediaKind})`.as("group_media_kinds"),
      identifier: gi.identifier,
      title: gi.title,
    })
    .from(f)
    .innerJoin(gi, eq(gi.id, f.groupIssueId))
    .where(and(...where))
    .groupBy((fields) => fields.groupIssueId)
    .having(and(...having))
    .orderBy(desc(newest), desc(f.groupIssueId))
    .limit(options.paged ? query.limit + 1 : 1);
  const page = options.paged ? results.slice(0, query.limit) : results;
  const last = page[page.length - 1];
  const nextCursor = options.paged && results.length > query.limit && last ? encodeCursor(mode, last.updatedAt, last.groupIssueId) : null;

  // The newest few artifacts of each group on the page, in one windowed query.
  const previews = new Map<string, ArtifactView[]>();
  if (page.length) {
    const pf = filtered(db, query, groupBy);
    const ranked = db.$with("ranked").as(
      db
        .select({
          ...pf._.selectedFields,
          rank: sql<number>`ROW_NUMBER() OVER (PARTITION BY ${pf.groupIssueId} ORDER BY ${pf.updatedAt} DESC, ${pf.id} DESC)`.as("artifact_rank"),
        })
        .from(pf)
        .where(
          inIds(
            pf.groupIssueId,
            page.map((g) => g.groupIssueId),
          ),
        ),
    );
    const rows: ArtifactRow[] = await db
      .with(pf, ranked)
      .select()
      .from(ranked)
      .where(lte(ranked.rank, PREVIEW_ARTIFACTS_PER_GROUP))
      .orderBy(desc(ranked.updatedAt), desc(ranked.id));
    for (const row of rows) {
      const list = previews.get(row.groupIssueId) ?? [];
      list.push(artifactView(row));
      previews.set(row.groupIssueId, list);
    }
  }
  const groups = page.map((g) => ({
    id: `${groupBy}:${g.groupIssueId}`,
    groupBy,
    issue: { id: g.groupIssueId, identifier: g.identifier, title: g.title },
    title: g.title,
    count: Number(g.count),
    mediaKinds: (g.mediaKinds ?? "")
      .split(",")
      .filter((k) => k !== "")
      .sort(),
    previewArtifacts: previews.get(g.groupIssueId) ?? [],
    updatedAt: g.updatedAt,
    href: `/issues/${g.identifier}`,
  }));
  return { groups, nextCursor };
}
export type ArtifactGroup = Awaited<ReturnType<typeof listGroups>>["groups"][number];

/** The artifacts envelope: { artifacts, nextCursor }, { groups, nextCursor } or { artifacts, nextCursor, selectedGroup }. */
export async function queryArtifacts(db: Db, query: ArtifactQuery) {
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

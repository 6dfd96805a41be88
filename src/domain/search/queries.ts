// The company search (GET /api/companies/{companyId}/search): issues (the issue list's own `q`
// matching and ranking, src/domain/issues/search.ts, plus an exact identifier), agents (name, title;
// not terminated), projects (name, description), issue documents (title, latest body; not of hidden
// issues) and, when the wiki plugin is ready, wiki pages (title, body; the wiki's full-text index).
// Every read joins the caller's read batch: one round trip per database (the plugin's status is the
// directory's). Results: exact matches first, then by tier (./match.ts), then by kind in a fixed order,
// each kind keeping its own order (issues: the list's ranking; wiki pages: bm25).
import { and, asc, desc, eq, isNull, ne, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import type { ReadBatch } from "../../db/read-batch";
import type { Actor } from "../actor";
import { addIssueListRead } from "../issues/list";
import { addPageMatches } from "../wiki/queries";
import { addPluginReadyRead } from "../plugins/queries";
import { WIKI_PLUGIN_KEY } from "../wiki/plugin";
import { asciiLower, excerptSql, snippetOf, snippetOfExcerpt, tierOf, tierSql, type MatchTier } from "./match";

export const SEARCH_KINDS = ["issue", "agent", "project", "document", "wiki_page"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 50;
export const MAX_SEARCH_QUERY_LENGTH = 200;

interface Found {
  id: string;
  title: string;
  snippet: string;
}
export type SearchResult =
  | (Found & { kind: "issue"; identifier: string })
  | (Found & { kind: "agent" })
  | (Found & { kind: "project" })
  | (Found & { kind: "document"; issueId: string; issueIdentifier: string; key: string })
  | (Found & { kind: "wiki_page"; wikiId: string; spaceSlug: string; path: string });

const KIND_ORDER: Record<SearchKind, number> = { issue: 0, agent: 1, project: 2, document: 3, wiki_page: 4 };

const t = schema.issues;
const a = schema.agents;
const pr = schema.projects;
const d = schema.issueDocuments;
const r = schema.issueDocumentRevisions;

/** Adds the search's reads to `batch`; after it ran, the results (at most `limit`, best first). */
export function addCompanySearch(batch: ReadBatch, actor: Actor, companyId: string, input: { q: string; limit?: number }) {
  const { q } = input;
  const limit = Math.min(Math.max(input.limit ?? DEFAULT_SEARCH_LIMIT, 1), MAX_SEARCH_LIMIT);
  const { db } = batch;
  const needle = sql`lower(${q})`;

  const issues = addIssueListRead(batch, companyId, { q, limit });
  // An identifier typed whole is the first result even when the list's ranking puts it past the page.
  const exactIssue = batch.add(
    db
      .select({ id: t.id, identifier: t.identifier, title: t.title, description: t.description })
      .from(t)
      .where(and(eq(t.companyId, companyId), eq(t.identifier, q.toUpperCase()), isNull(t.hiddenAt))),
  );

  const agentTier = tierSql(sql`${a.name}`, [sql`${a.title}`], needle);
  const agents = batch.add(
    db
      .select({ id: a.id, name: a.name, title: a.title, role: a.role, tier: agentTier })
      .from(a)
      .where(and(eq(a.companyId, companyId), ne(a.status, "terminated"), sql`${agentTier} IS NOT NULL`))
      .orderBy(agentTier, asc(a.name), asc(a.id))
      .limit(limit),
  );

  const projectTier = tierSql(sql`${pr.name}`, [sql`${pr.description}`], needle);
  const projects = batch.add(
    db
      .select({ id: pr.id, name: pr.name, tier: projectTier, ...excerptSql(sql`${pr.description}`, needle) })
      .from(pr)
      .where(and(eq(pr.companyId, companyId), sql`${projectTier} IS NOT NULL`))
      .orderBy(projectTier, asc(pr.name), asc(pr.id))
      .limit(limit),
  );

  const documentTitle = sql<string>`coalesce(${d.title}, ${d.key})`;
  const documentTier = tierSql(documentTitle, [sql`${r.body}`], needle);
  const documents = batch.add(
    db
      .select({
        id: d.id,
        title: documentTitle,
        key: d.key,
        issueId: d.issueId,
        issueIdentifier: t.identifier,
        tier: documentTier,
        ...excerptSql(sql`${r.body}`, needle),
      })
      .from(d)
      .innerJoin(r, eq(r.id, d.latestRevisionId))
      .innerJoin(t, eq(t.id, d.issueId))
      .where(and(eq(d.companyId, companyId), isNull(t.hiddenAt), sql`${documentTier} IS NOT NULL`))
      .orderBy(documentTier, desc(d.updatedAt), asc(d.id))
      .limit(limit),
  );

  const wikiReady = addPluginReadyRead(batch, WIKI_PLUGIN_KEY);
  const pages = addPageMatches(batch, actor, companyId, q, limit);

  return (): SearchResult[] => {
    const found: Array<{ tier: MatchTier; result: SearchResult }> = [];
    const issueRows: Array<{ id: string; identifier: string; title: string; description: string | null }> = issues();
    const exact = exactIssue.value[0];
    if (exact && !issueRows.some((i) => i.id === exact.id)) issueRows.unshift(exact);
    for (const issue of issueRows) {
      found.push({
        tier: asciiLower(issue.identifier) === asciiLower(q) ? 0 : tierOf([issue.title], q),
        result: { kind: "issue", id: issue.id, identifier: issue.identifier, title: issue.title, snippet: snippetOf(issue.description, q) },
      });
    }
    for (const agent of agents.value) {
      found.push({ tier: agent.tier!, result: { kind: "agent", id: agent.id, title: agent.name, snippet: snippetOf(agent.title ?? agent.role, q) } });
    }
    for (const project of projects.value) {
      found.push({ tier: project.tier!, result: { kind: "project", id: project.id, title: project.name, snippet: snippetOfExcerpt(project) } });
    }
    for (const doc of documents.value) {
      found.push({
        tier: doc.tier!,
        result: {
          kind: "document",
          id: doc.id,
          title: doc.title,
          snippet: snippetOfExcerpt(doc),
          issueId: doc.issueId,
          issueIdentifier: doc.issueIdentifier,
          key: doc.key,
        },
      });
    }
    if (pages && wikiReady()) {
      for (const page of pages.value) {
        found.push({
          tier: page.tier,
          result: {
            kind: "wiki_page",
            id: page.id,
            title: page.title,
            snippet: page.snippet.replace(/\s+/g, " ").trim(),
            wikiId: page.wikiId,
            spaceSlug: page.spaceSlug,
            path: page.path,
          },
        });
      }
    }
    // A stable sort: within a tier and kind, each kind's own order stands.
    return found
      .sort((x, y) => x.tier - y.tier || KIND_ORDER[x.result.kind] - KIND_ORDER[y.result.kind])
      .slice(0, limit)
      .map((f) => f.result);
  };
}

// Loading issues by UUID or identifier (`ABC-12`), with their labels and blockers.
import { inIds } from "../../db/id-list";
import { asc, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { notFound } from "../errors";
import { issueView, type IssueRelations, type IssueRow } from "./view";
import { ISSUE_IDENTIFIER_PATTERN } from "../companies/issue-prefix";

// Prefixes may end in digits (ACM2-5).
const ISSUE_IDENTIFIER = ISSUE_IDENTIFIER_PATTERN;

/** The issue with this UUID or identifier (identifiers are case-insensitive), or undefined. */
export async function findIssue(db: Db, idOrIdentifier: string): Promise<IssueRow | undefined> {
  if (ISSUE_IDENTIFIER.test(idOrIdentifier)) {
    return db.query.issues.findFirst({ where: eq(schema.issues.identifier, idOrIdentifier.toUpperCase()) });
  }
  return db.query.issues.findFirst({ where: eq(schema.issues.id, idOrIdentifier) });
}

export async function loadIssueInCompany(db: Db, companyId: string, idOrIdentifier: string): Promise<IssueRow> {
  const issue = await findIssue(db, idOrIdentifier);
  if (!issue || issue.companyId !== companyId) throw notFound("Issue not found");
  return issue;
}

/** Labels and blockers of many issues, in two queries. */
export async function loadRelations(db: Db, issueIds: string[]): Promise<Map<string, IssueRelations>> {
  const map = new Map<string, IssueRelations>();
  for (const id of issueIds) map.set(id, { labels: [], blockedByIssueIds: [] });
  if (!issueIds.length) return map;
  const [labelRows, blockerRows] = await db.batch([
    db
      .select({ issueId: schema.issueLabels.issueId, id: schema.labels.id, name: schema.labels.name, color: schema.labels.color })
      .from(schema.issueLabels)
      .innerJoin(schema.labels, eq(schema.labels.id, schema.issueLabels.labelId))
      .where(inIds(schema.issueLabels.issueId, issueIds))
      .orderBy(asc(schema.labels.name)),
    db
      .select({ issueId: schema.issueBlockers.issueId, blockerIssueId: schema.issueBlockers.blockerIssueId })
      .from(schema.issueBlockers)
      .where(inIds(schema.issueBlockers.issueId, issueIds))
      .orderBy(asc(schema.issueBlockers.createdAt), asc(schema.issueBlockers.blockerIssueId)),
  ]);
  for (const l of labelRows) map.get(l.issueId)?.labels.push({ id: l.id, name: l.name, color: l.color ?? null });
  for (const b of blockerRows) map.get(b.issueId)?.blockedByIssueIds.push(b.blockerIssueId);
  return map;
}

export async function issueViewsFor(db: Db, rows: IssueRow[]) {
  const rel = await loadRelations(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => issueView(r, rel.get(r.id)!));
}

export async function issueViewFor(db: Db, row: IssueRow) {
  return (await issueViewsFor(db, [row]))[0];
}

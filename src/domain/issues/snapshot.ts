// What an issue command reads before deciding, added to one read batch: the issue (by UUID or
// identifier) with its labels, blockers and checkout run; the company's agents and status (for
// mentions and wake-ups); issues waiting on it (for blocker-resolved wake-ups).
import { and, asc, eq, ne, sql, type Placeholder, type SQL } from "drizzle-orm";
import { schema } from "../../db/client";
import type { ReadBatch } from "../../db/read-batch";
import type { RunRow } from "../runs/actor-run";
import { template } from "../../db/templates";
import { issueIdBy, issueIdOf, issueRefConditionBy, issueRefKey, type IssueRefKind } from "./references";
import type { IssueRelations, IssueRow } from "./view";

export interface IssueSnapshot {
  issue: IssueRow;
  relations: IssueRelations;
  /** The run holding the checkout, when there is one and it still exists. */
  checkoutRun: RunRow | null;
}

/** The snapshot's reads for a ref of one kind, built once (src/db/templates.ts). */
function snapshotTemplates(kind: IssueRefKind) {
  const i = schema.issues;
  return {
    issue: template(["ref"], (db, slot) => db.select().from(i).where(issueRefConditionBy(kind, slot.ref))),
    labels: template(["ref"], (db, slot) =>
      db
        .select({ id: schema.labels.id, name: schema.labels.name, color: schema.labels.color })
        .from(schema.issueLabels)
        .innerJoin(schema.labels, eq(schema.labels.id, schema.issueLabels.labelId))
        .where(sql`${schema.issueLabels.issueId} = ${issueIdBy(kind, slot.ref)}`)
        .orderBy(asc(schema.labels.name)),
    ),
    blockers: template(["ref"], (db, slot) =>
      db
        .select({ blockerIssueId: schema.issueBlockers.blockerIssueId })
        .from(schema.issueBlockers)
        .where(sql`${schema.issueBlockers.issueId} = ${issueIdBy(kind, slot.ref)}`)
        .orderBy(asc(schema.issueBlockers.createdAt), asc(schema.issueBlockers.blockerIssueId)),
    ),
    run: template(["ref"], (db, slot) =>
      db
        .select()
        .from(schema.heartbeatRuns)
        .where(sql`${schema.heartbeatRuns.id} = (SELECT ${i.checkoutRunId} FROM ${i} WHERE ${issueRefConditionBy(kind, slot.ref)})`),
    ),
  };
}
const snapshotReads = { id: snapshotTemplates("id"), identifier: snapshotTemplates("identifier") };

/** The issue `ref` names with its relations and checkout run; null when there is no such issue. */
export function addIssueSnapshotReads(batch: ReadBatch, ref: string): () => IssueSnapshot | null {
  const db = batch.db;
  const { kind, value } = issueRefKey(ref);
  const reads = snapshotReads[kind];
  const issue = batch.add(reads.issue(db, { ref: value }));
  const labels = batch.add(reads.labels(db, { ref: value }));
  const blockers = batch.add(reads.blockers(db, { ref: value }));
  const run = batch.add(reads.run(db, { ref: value }));
  return () => {
    const row = issue.value[0];
    if (!row) return null;
    return {
      issue: row,
      relations: {
        labels: labels.value.map((l) => ({ id: l.id, name: l.name, color: l.color ?? null })),
        blockedByIssueIds: blockers.value.map((b) => b.blockerIssueId),
      },
      checkoutRun: run.value[0] ?? null,
    };
  };
}

export interface CompanyAgents {
  companyActive: boolean;
  companyPauseReason: string | null;
  /** Every agent of the company that is not terminated. */
  agents: Array<{ id: string; name: string; status: string; pauseReason: string | null }>;
}

/** The company's reads for a company named by id (`company`) or as the company of an issue ref of one kind, built once. */
function companyAgentsTemplates(company: (slot: Placeholder) => Placeholder | SQL) {
  return {
    company: template(["company"], (db, slot) =>
      db
        .select({ status: schema.companies.status, pauseReason: schema.companies.pauseReason })
        .from(schema.companies)
        .where(eq(schema.companies.id, company(slot.company))),
    ),
    agents: template(["company"], (db, slot) =>
      db
        .select({ id: schema.agents.id, name: schema.agents.name, status: schema.agents.status, pauseReason: schema.agents.pauseReason })
        .from(schema.agents)
        .where(and(eq(schema.agents.companyId, company(slot.company)), ne(schema.agents.status, "terminated"))),
    ),
  };
}
const companyOfIssueBy = (kind: IssueRefKind) => (ref: Placeholder) =>
  sql<string>`(SELECT ${schema.issues.companyId} FROM ${schema.issues} WHERE ${schema.issues.id} = ${issueIdBy(kind, ref)})`;
const companyAgentsReads = {
  company: companyAgentsTemplates((slot) => slot),
  id: companyAgentsTemplates(companyOfIssueBy("id")),
  identifier: companyAgentsTemplates(companyOfIssueBy("identifier")),
};

/** The company's status and its agents (who can be mentioned or woken): the company by id, or the company of the issue `issueRef` names. */
export function addCompanyAgentsRead(batch: ReadBatch, company: string | { issueRef: string }): () => CompanyAgents {
  const db = batch.db;
  const key = typeof company === "string" ? { kind: "company" as const, value: company } : issueRefKey(company.issueRef);
  const reads = companyAgentsReads[key.kind];
  const companyRow = batch.add(reads.company(db, { company: key.value }));
  const agents = batch.add(reads.agents(db, { company: key.value }));
  return () => ({
    companyActive: companyRow.value[0]?.status === "active",
    companyPauseReason: companyRow.value[0]?.pauseReason ?? null,
    agents: agents.value,
  });
}

/** What deciding whether a run still holds a lock needs (see runs/lease.ts). */
export type HolderRun = Pick<RunRow, "id" | "agentId" | "status" | "lastActivityAt" | "startedAt" | "createdAt">;

export interface Dependent {
  id: string;
  identifier: string;
  assigneeAgentId: string;
  /** The run holding the dependent's checkout, if any. */
  holder: HolderRun | null;
}

/**
 * Holder-run columns under their own names: D1 batches return rows as objects, so a join that
 * selects two columns called `id` would lose one.
 */
export const holderRunColumns = {
  holderId: sql<string | null>`${schema.heartbeatRuns.id}`.as("holder_id"),
  holderAgentId: sql<string | null>`${schema.heartbeatRuns.agentId}`.as("holder_agent_id"),
  holderStatus: sql<string | null>`${schema.heartbeatRuns.status}`.as("holder_status"),
  holderLastActivityAt: sql<string | null>`${schema.heartbeatRuns.lastActivityAt}`.as("holder_last_activity_at"),
  holderStartedAt: sql<string | null>`${schema.heartbeatRuns.startedAt}`.as("holder_started_at"),
  holderCreatedAt: sql<string | null>`${schema.heartbeatRuns.createdAt}`.as("holder_created_at"),
};

type HolderColumns = { [K in keyof typeof holderRunColumns]: string | null };

export const holderRunOf = (r: HolderColumns): HolderRun | null =>
  r.holderId
    ? {
        id: r.holderId,
        agentId: r.holderAgentId!,
        status: r.holderStatus as RunRow["status"],
        lastActivityAt: r.holderLastActivityAt,
        startedAt: r.holderStartedAt,
        createdAt: r.holderCreatedAt!,
      }
    : null;

/**
 * Open issues blocked by `ref` whose other blockers are all resolved and that have an assignee
 * agent: who wakes (`blocker_resolved`) when `ref` moves to done.
 */
export function addDependentsRead(batch: ReadBatch, ref: string): () => Dependent[] {
  const db = batch.db;
  const blocker = issueIdOf(ref);
  const i = schema.issues;
  const rows = batch.add(
    db
      .select({ id: i.id, identifier: i.identifier, assigneeAgentId: i.assigneeAgentId, ...holderRunColumns })
      .from(schema.issueBlockers)
      .innerJoin(i, eq(i.id, schema.issueBlockers.issueId))
      .leftJoin(schema.heartbeatRuns, eq(schema.heartbeatRuns.id, i.checkoutRunId))
      .where(
        and(
          sql`${schema.issueBlockers.blockerIssueId} = ${blocker}`,
          sql`${i.status} NOT IN ('done', 'cancelled')`,
          sql`${i.assigneeAgentId} IS NOT NULL`,
          sql`NOT EXISTS (
            SELECT 1 FROM issue_blockers b2 JOIN issues o ON o.id = b2.blocker_issue_id
            WHERE b2.issue_id = ${i.id} AND b2.blocker_issue_id != ${blocker} AND o.status NOT IN ('done', 'cancelled')
          )`,
        ),
      ),
  );
  return () => rows.value.map((r) => ({ id: r.id, identifier: r.identifier, assigneeAgentId: r.assigneeAgentId!, holder: holderRunOf(r) }));
}

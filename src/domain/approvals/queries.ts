// Approval reads answered at the edge: lists, one approval, its linked issues and comments.
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { notFound } from "../errors";
import { approvalCommentView, approvalView, type ApprovalRow } from "./view";

const approvals = schema.approvals;

/** The company's approvals newest first, optionally of one status and type. */
export async function listApprovals(db: Db, companyId: string, filters: { status?: ApprovalRow["status"]; type?: ApprovalRow["type"] }) {
  const rows = await db
    .select()
    .from(approvals)
    .where(
      and(
        eq(approvals.companyId, companyId),
        filters.status ? eq(approvals.status, filters.status) : undefined,
        filters.type ? eq(approvals.type, filters.type) : undefined,
      ),
    )
    .orderBy(desc(approvals.createdAt), desc(sql`rowid`));
  return rows.map(approvalView);
}

/** The approval row; 404 when unknown (callers check the company). */
export async function loadApproval(db: Db, approvalId: string) {
  const row = await db.query.approvals.findFirst({ where: eq(approvals.id, approvalId) });
  if (!row) throw notFound("Approval not found");
  return row;
}

/** Issues of the approval's company linked to it, by number. */
export async function approvalIssues(db: Db, approval: Pick<ApprovalRow, "id" | "companyId">) {
  const i = schema.issues;
  const links = schema.approvalIssues;
  return db
    .select({
      id: i.id,
      identifier: i.identifier,
      title: i.title,
      status: i.status,
      priority: i.priority,
      projectId: i.projectId,
      assigneeAgentId: i.assigneeAgentId,
      linkedAt: links.createdAt,
      updatedAt: i.updatedAt,
    })
    .from(links)
    .innerJoin(i, and(eq(i.id, links.issueId), eq(i.companyId, approval.companyId)))
    .where(eq(links.approvalId, approval.id))
    .orderBy(asc(i.number));
}

/** Comments on the approval, oldest first. */
export async function listApprovalComments(db: Db, approvalId: string) {
  const t = schema.approvalComments;
  const rows = await db.select().from(t).where(eq(t.approvalId, approvalId)).orderBy(asc(t.createdAt), asc(sql`rowid`));
  return rows.map(approvalCommentView);
}

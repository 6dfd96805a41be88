// Reading questions: an issue's (oldest first), and a company's by status (newest first), each with
// its issue's identifier and title.
import { and, asc, desc, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { QUESTION_STATUSES, type QuestionStatus } from "../../db/schema/questions";
import { questionView } from "./view";

export { QUESTION_STATUSES };

export async function listIssueQuestions(db: Db, issueId: string) {
  const q = schema.issueQuestions;
  const rows = await db.select().from(q).where(eq(q.issueId, issueId)).orderBy(asc(q.createdAt), asc(q.id));
  return rows.map(questionView);
}

export async function listCompanyQuestions(db: Db, companyId: string, filter: { status?: QuestionStatus; askedOfUserId?: string; limit: number }) {
  const q = schema.issueQuestions;
  const i = schema.issues;
  const rows = await db
    .select({ question: q, identifier: i.identifier, issueTitle: i.title, issueStatus: i.status })
    .from(q)
    .innerJoin(i, eq(i.id, q.issueId))
    .where(
      and(
        eq(q.companyId, companyId),
        filter.status ? eq(q.status, filter.status) : undefined,
        filter.askedOfUserId ? eq(q.askedOfUserId, filter.askedOfUserId) : undefined,
      ),
    )
    .orderBy(desc(q.createdAt), desc(q.id))
    .limit(filter.limit);
  return rows.map((r) => ({
    ...questionView(r.question),
    issue: { id: r.question.issueId, identifier: r.identifier, title: r.issueTitle, status: r.issueStatus },
  }));
}

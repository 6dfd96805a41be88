// A question as the API shows it.
import type { schema } from "../../db/client";

export type QuestionRow = typeof schema.issueQuestions.$inferSelect;

export const questionView = (row: QuestionRow) => ({
  id: row.id,
  companyId: row.companyId,
  issueId: row.issueId,
  askedByAgentId: row.askedByAgentId,
  runId: row.runId,
  askedOfUserId: row.askedOfUserId,
  prompt: row.prompt,
  options: row.options,
  allowFreeText: row.allowFreeText,
  blocksIssue: row.blocksIssue,
  status: row.status,
  answer:
    row.status === "answered"
      ? {
          optionId: row.answerOptionId,
          optionLabel: row.options.find((o) => o.id === row.answerOptionId)?.label ?? null,
          text: row.answerText,
          answeredByUserId: row.answeredByUserId,
          answeredAt: row.answeredAt,
          commentId: row.answerCommentId,
        }
      : null,
  cancelledAt: row.cancelledAt,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

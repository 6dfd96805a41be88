// Questions agents ask people on an issue (src/domain/questions/): a prompt with optional choices,
// asked of the board or one member, optionally blocking the issue until answered. One answer wins
// (the update is guarded on `open`); the answer is posted as a comment and wakes the asking agent.
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";

export const QUESTION_STATUSES = ["open", "answered", "cancelled"] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

export interface QuestionOption {
  id: string;
  label: string;
}

export const issueQuestions = sqliteTable(
  "issue_questions",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    issueId: text("issue_id").notNull(),
    askedByAgentId: text("asked_by_agent_id").notNull(),
    /** The run it was asked from, if any. */
    runId: text("run_id"),
    /** The member it is asked of (null: the board). */
    askedOfUserId: text("asked_of_user_id"),
    prompt: text("prompt").notNull(),
    options: text("options", { mode: "json" }).$type<QuestionOption[]>().notNull(),
    allowFreeText: integer("allow_free_text", { mode: "boolean" }).notNull(),
    blocksIssue: integer("blocks_issue", { mode: "boolean" }).notNull(),
    /** The issue's status before the question blocked it (restored by the answer or a cancel). */
    statusBefore: text("status_before"),
    status: text("status", { enum: QUESTION_STATUSES }).notNull(),
    answerOptionId: text("answer_option_id"),
    answerText: text("answer_text"),
    answeredByUserId: text("answered_by_user_id"),
    answeredAt: text("answered_at"),
    /** The comment the answer was posted as. */
    answerCommentId: text("answer_comment_id"),
    cancelledAt: text("cancelled_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("issue_questions_issue_idx").on(t.issueId, t.createdAt), index("issue_questions_company_status_idx").on(t.companyId, t.status, t.createdAt)],
);

// Feedback traces: a vote and remarks by a board user or an agent on agent output (an issue, a
// comment, a run, a document, an approval), kept for review and, with the company's consent,
// marked shareable.
import { sqliteTable, text, index } from "drizzle-orm/sqlite-core";
import { createdAt, json, bool } from "./columns";
import { companies } from "./companies";

export const FEEDBACK_TARGET_TYPES = ["issue", "comment", "run", "document", "approval"] as const;
export const FEEDBACK_VOTES = ["up", "down", "neutral"] as const;
export const FEEDBACK_STATUSES = ["open", "acknowledged", "resolved"] as const;

export const feedbackTraces = sqliteTable(
  "feedback_traces",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    targetType: text("target_type", { enum: FEEDBACK_TARGET_TYPES }).notNull(),
    targetId: text("target_id").notNull(),
    issueId: text("issue_id"),
    projectId: text("project_id"),
    vote: text("vote", { enum: FEEDBACK_VOTES }).notNull(),
    status: text("status", { enum: FEEDBACK_STATUSES }).notNull(),
    comment: text("comment"),
    payload: json<Record<string, unknown>>("payload"),
    /** Marked shareable: asked for by the writer and allowed by the company's consent at the time. */
    shared: bool("shared").notNull(),
    createdByAgentId: text("created_by_agent_id"),
    createdByUserId: text("created_by_user_id"),
    createdAt: createdAt(),
  },
  (t) => [index("feedback_traces_company_created_idx").on(t.companyId, t.createdAt)],
);

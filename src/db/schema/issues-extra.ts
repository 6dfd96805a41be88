// Tables around issues: comments, labels, blocker relations, runs that touched an issue,
// and per-user read / inbox-archive state.
import { sqliteTable, text, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";
import { issues } from "./issues";

export const issueComments = sqliteTable(
  "issue_comments",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    issueId: text("issue_id").notNull().references(() => issues.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    authorAgentId: text("author_agent_id"),
    authorUserId: text("author_user_id"),
    /** The run that wrote the comment (agents), so the issue's runs can be listed. */
    runId: text("run_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("issue_comments_issue_created_idx").on(t.issueId, t.createdAt),
    index("issue_comments_company_agent_idx").on(t.companyId, t.authorAgentId),
    index("issue_comments_company_user_idx").on(t.companyId, t.authorUserId),
  ],
);

export const labels = sqliteTable(
  "labels",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Lower-cased name: label names are unique per company regardless of case. */
    nameKey: text("name_key").notNull(),
    color: text("color"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("labels_company_name_uq").on(t.companyId, t.nameKey)],
);

export const issueLabels = sqliteTable(
  "issue_labels",
  {
    issueId: text("issue_id").notNull().references(() => issues.id, { onDelete: "cascade" }),
    labelId: text("label_id").notNull().references(() => labels.id, { onDelete: "cascade" }),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.labelId] }), index("issue_labels_label_idx").on(t.labelId)],
);

/** `issueId` is blocked by `blockerIssueId`. */
export const issueBlockers = sqliteTable(
  "issue_blockers",
  {
    issueId: text("issue_id").notNull().references(() => issues.id, { onDelete: "cascade" }),
    blockerIssueId: text("blocker_issue_id").notNull().references(() => issues.id, { onDelete: "cascade" }),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.blockerIssueId] }), index("issue_blockers_blocker_idx").on(t.blockerIssueId)],
);

/** Heartbeat runs that touched an issue (checked it out, commented on or updated it). */
export const issueRunLinks = sqliteTable(
  "issue_run_links",
  {
    issueId: text("issue_id").notNull().references(() => issues.id, { onDelete: "cascade" }),
    runId: text("run_id").notNull(),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.runId] }), index("issue_run_links_run_idx").on(t.runId)],
);

/** A board user's read cursor and inbox-archive mark on an issue. */
export const issueUserStates = sqliteTable(
  "issue_user_states",
  {
    issueId: text("issue_id").notNull().references(() => issues.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    companyId: text("company_id").notNull().references(() => companies.id, { onDelete: "cascade" }),
    lastReadAt: text("last_read_at"),
    inboxArchivedAt: text("inbox_archived_at"),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.userId] }), index("issue_user_states_user_idx").on(t.companyId, t.userId)],
);

// The issue list's order: priority (critical, high, medium, low), then latest update, then id —
// served by the expression index issues_company_priority_idx (src/db/schema/issues.ts).
import { sql } from "drizzle-orm";
import { schema } from "../../db/client";

const t = schema.issues;
export const PRIORITY_RANK = sql`CASE ${t.priority} WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END`;

/**
 * The outer issue in a correlated subquery, always qualified: drizzle renders a column of a
 * one-table select unqualified ("id"), which inside `FROM issue_comments` or `JOIN labels` names
 * that table's own id (every list lost its labels, and the comment filters their matches, that way).
 */
export const ISSUE_ID = sql.raw('"issues"."id"');

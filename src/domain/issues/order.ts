// The issue list's order: priority (critical, high, medium, low), then latest update, then id —
// served by the expression index issues_company_priority_idx (src/db/schema/issues.ts).
import { sql } from "drizzle-orm";
import { schema } from "../../db/client";

const t = schema.issues;
export const PRIORITY_RANK = sql`CASE ${t.priority} WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END`;

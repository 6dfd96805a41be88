// The checkout lock fields of an issue. Every path that ends a checkout (release, reassignment,
// leaving in_progress, agent deletion, liveness recovery) clears all of them in one statement,
// so no lock field is ever left behind.
import { schema } from "../../db/client";
import { rowExists } from "../../db/guards";
import type { IssueRow } from "./view";

export const CLEARED_LOCK_FIELDS = { checkoutRunId: null, checkedOutAt: null, executionLockedAt: null } as const;

/** Release: back to todo with no assignee agent and no lock (assigneeUserId is kept). */
export const RELEASED_ISSUE_FIELDS = { status: "todo", assigneeAgentId: null, ...CLEARED_LOCK_FIELDS } as const;

/** SQL: the issue's lock state (status, checkout run, assignee agent) is still `issue`'s; a guard for writes decided on it. */
export const lockAsRead = (issue: Pick<IssueRow, "id" | "status" | "checkoutRunId" | "assigneeAgentId">) =>
  rowExists(schema.issues, { id: issue.id, status: issue.status, checkoutRunId: issue.checkoutRunId, assigneeAgentId: issue.assigneeAgentId });

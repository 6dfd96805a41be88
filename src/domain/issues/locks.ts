// The checkout lock fields of an issue. Every path that ends a checkout (release, reassignment,
// leaving in_progress, agent deletion, liveness recovery) clears all of them in one statement,
// so no lock field is ever left behind.
export const CLEARED_LOCK_FIELDS = { checkoutRunId: null, checkedOutAt: null, executionLockedAt: null } as const;

/** Release: back to todo with no assignee agent and no lock (assigneeUserId is kept). */
export const RELEASED_ISSUE_FIELDS = { status: "todo", assigneeAgentId: null, ...CLEARED_LOCK_FIELDS } as const;

// The approval state machine: every allowed (state, action) pair, who may take it, and
// where it leads. Anything not in this table is rejected with 422.
import type { schema } from "../../db/client";

export type ApprovalStatus = (typeof schema.approvals.$inferSelect)["status"];
export const approvalActions = ["approve", "reject", "request-revision", "resubmit"] as const;
export type ApprovalAction = (typeof approvalActions)[number];

/** `board`: board callers only. `requester_or_board`: the requesting agent itself, or any board caller. */
export type ApprovalActor = "board" | "requester_or_board";

export interface ApprovalTransition {
  next: ApprovalStatus;
  by: ApprovalActor;
}

export const APPROVAL_TRANSITIONS: Record<ApprovalStatus, Partial<Record<ApprovalAction, ApprovalTransition>>> = {
  pending: {
    approve: { next: "approved", by: "board" },
    reject: { next: "rejected", by: "board" },
    "request-revision": { next: "revision_requested", by: "board" },
  },
  revision_requested: {
    approve: { next: "approved", by: "board" },
    reject: { next: "rejected", by: "board" },
    resubmit: { next: "pending", by: "requester_or_board" },
  },
  approved: {},
  rejected: {},
};

/** Who may attempt an action at all (checked before the state, so a forbidden caller gets 403, not 422). */
export const ACTION_ACTORS: Record<ApprovalAction, ApprovalActor> = {
  approve: "board",
  reject: "board",
  "request-revision": "board",
  resubmit: "requester_or_board",
};

export function approvalTransition(status: ApprovalStatus, action: ApprovalAction): ApprovalTransition | null {
  return APPROVAL_TRANSITIONS[status][action] ?? null;
}

/** Statuses after which the requester is woken (`approval_resolved`). */
export const WAKING_STATUSES: ReadonlySet<ApprovalStatus> = new Set(["approved", "rejected", "revision_requested"]);

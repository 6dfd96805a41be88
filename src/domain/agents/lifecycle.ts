// The agent state machine as one table: which lifecycle action may leave which status, and where to.
import type { AgentStatus } from "../../db/schema/agents";
import { conflict } from "../errors";

export type LifecycleAction = "pause" | "resume" | "terminate";

/** Pause reason recorded when an agent awaiting hire approval is paused; resume returns it to pending_approval. */
export const PAUSED_WHILE_PENDING = "pending_approval";

interface Rule {
  from: readonly AgentStatus[];
  /** Resulting status (resume from a pause taken while pending approval goes back to pending_approval). */
  to: (status: AgentStatus, pauseReason: string | null) => AgentStatus;
}

const WORKING = ["active", "idle", "running", "error"] as const;

export const LIFECYCLE: Record<LifecycleAction, Rule> = {
  // Any non-terminated agent may be paused (pausing a paused agent is a no-op).
  pause: { from: [...WORKING, "paused", "pending_approval"], to: () => "paused" },
  // Resume: a paused or errored agent becomes idle; resuming an agent that is already working is a no-op.
  // Terminated and pending-approval agents cannot be resumed.
  resume: {
    from: [...WORKING, "paused"],
    to: (status, pauseReason) =>
      status === "paused" ? (pauseReason === PAUSED_WHILE_PENDING ? "pending_approval" : "idle") : status === "error" ? "idle" : status,
  },
  terminate: { from: [...WORKING, "paused", "pending_approval", "terminated"], to: () => "terminated" },
};

/** The status after `action`, or 409 naming the current status when the move is not allowed. */
export function nextStatus(action: LifecycleAction, status: AgentStatus, pauseReason: string | null): AgentStatus {
  const rule = LIFECYCLE[action];
  if (!rule.from.includes(status)) {
    const why =
      status === "terminated" ? "the agent is terminated" : status === "pending_approval" ? "the agent is awaiting hire approval" : `the agent is ${status}`;
    throw conflict(`Cannot ${action} agent: ${why}`, { status, action });
  }
  return rule.to(status, pauseReason);
}

/** Statuses a general PATCH may set. */
export const PATCHABLE_STATUSES = ["active", "idle", "paused", "error"] as const;

/** A status patch: never out of terminated, and out of pending_approval only to paused. */
export function checkStatusPatch(current: AgentStatus, target: AgentStatus): void {
  if (current === target) return;
  if (current === "terminated") throw conflict("Cannot change the status of a terminated agent", { status: current, requested: target });
  if (current === "pending_approval" && target !== "paused") {
    throw conflict("Cannot activate an agent awaiting hire approval; approve the hire instead", { status: current, requested: target });
  }
}

// Issue document lock: the state machine and what a write to a locked document does.
// A locked document is frozen for everyone (including whoever locked it) until unlocked.
import type { Actor } from "../actor";

export type LockState = "unlocked" | "locked";
export type LockAction = "lock" | "unlock";

/** Allowed transitions; repeating an action in the state it leads to is a no-op (idempotent). */
export const LOCK_TRANSITIONS: Record<LockState, Partial<Record<LockAction, LockState>>> = {
  unlocked: { lock: "locked", unlock: "unlocked" },
  locked: { unlock: "unlocked", lock: "locked" },
};

export const lockState = (doc: { lockedAt: string | null }): LockState => (doc.lockedAt ? "locked" : "unlocked");

/** Writes (PUT, restore) to a locked document: board callers are refused, agents are redirected to a derived key. */
export const LOCKED_WRITE_OUTCOME = { board: "conflict", agent: "redirect" } as const;

export function lockedWriteOutcome(actor: Actor): "conflict" | "redirect" {
  return actor.type === "agent" ? LOCKED_WRITE_OUTCOME.agent : LOCKED_WRITE_OUTCOME.board;
}

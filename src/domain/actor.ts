// Who is calling: a board user (human/operator), an agent, or nobody.
import type { ACTOR_TYPES } from "../db/schema/activity";

export type BoardActor = {
  type: "board";
  source: "local_implicit" | "session" | "board_key";
  userId: string;
  isInstanceAdmin: boolean;
  /** Companies where the user has an active membership (ignored for local_implicit). */
  companyIds: string[];
  keyId: string | null;
  runId: string | null;
};

export type AgentActor = {
  type: "agent";
  source: "agent_key" | "agent_jwt";
  agentId: string;
  companyId: string;
  keyId: string | null;
  runId: string | null;
};

export type NoActor = { type: "none"; runId: string | null };

export type Actor = BoardActor | AgentActor | NoActor;

export const LOCAL_BOARD_USER_ID = "local-board";

/** The service itself (cron ticks, budget enforcement, maintenance, a gateway run's reports): no caller. */
export const SYSTEM_ACTOR: Actor = { type: "none", runId: null };

/** Full trust: local implicit board and instance admins bypass company membership. */
export const hasInstanceWideAccess = (actor: Actor) => actor.type === "board" && (actor.source === "local_implicit" || actor.isInstanceAdmin);

export function actorRef(actor: Actor): { actorType: (typeof ACTOR_TYPES)[number]; actorId: string } {
  if (actor.type === "agent") return { actorType: "agent", actorId: actor.agentId };
  if (actor.type === "board") return { actorType: "user", actorId: actor.userId };
  return { actorType: "system", actorId: "system" };
}

// Guards for routes about one agent: the agent the path names (by id or shortname, within the
// caller's reach) and who may manage agents.
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { dbOf } from "./db";
import { requireActor, requireEntityAccess } from "./access";
import { forbidden } from "../domain/errors";
import { canManageAgents } from "../domain/authorization/agent-management";
import type { AgentRow } from "../domain/agents/view";
import { findAgentByRef } from "../domain/agents/queries";

type C = Context<AppEnv>;

/**
 * The agent named by the path: a UUID, or a shortname (urlKey) resolved in the company given by
 * `?companyId=` or the agent caller's own company (a live agent wins over a terminated one).
 * Agents of companies the caller cannot reach are reported missing (404).
 */
export async function resolveAgent(c: C, ref: string, companyIdQuery: string | undefined): Promise<AgentRow> {
  const actor = requireActor(c);
  const agent = await findAgentByRef(dbOf(c), ref, { companyId: companyIdQuery, callerCompanyId: actor.type === "agent" ? actor.companyId : null });
  requireEntityAccess(c, agent?.companyId, "Agent");
  return agent!;
}

export async function requireAgentManager(c: C, companyId: string) {
  const actor = requireActor(c);
  if (!(await canManageAgents(dbOf(c), actor, companyId))) {
    throw forbidden("Requires the agents:create permission (or legacy canCreateAgents) in this company", { permissionKey: "agents:create" });
  }
  return actor;
}

export async function requireBoardAgentManager(c: C, companyId: string) {
  const actor = requireActor(c);
  if (actor.type !== "board") throw forbidden("Board access required");
  return requireAgentManager(c, companyId);
}

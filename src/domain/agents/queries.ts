// Agent reads: lookups by id or shortname, the company's agent list and single agent views
// (redacted for callers who may not read configuration).
import { and, eq, ne } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import type { Actor } from "../actor";
import { badRequest, notFound } from "../errors";
import { canReadAgentConfig } from "../authorization/agent-management";
import { UUID_PATTERN } from "./naming";
import { buildAgentView, buildAgentViews, type AgentRow } from "./view";

const agents = schema.agents;

export const findAgent = (db: Db, agentId: string): Promise<AgentRow | undefined> => db.query.agents.findFirst({ where: eq(agents.id, agentId) });

/** The agent of this company; 404 when it is missing or belongs to another company. */
export async function loadCompanyAgent(db: Db, companyId: string, agentId: string): Promise<AgentRow> {
  const agent = await findAgent(db, agentId);
  if (!agent || agent.companyId !== companyId) throw notFound("Agent not found");
  return agent;
}

/**
 * The agent named by a UUID, or by a shortname (urlKey) in the company given by `?companyId=`
 * or else the calling agent's own company (a live agent wins over a terminated one); undefined
 * when none matches. A UUID of another company than `?companyId=` does not match; a shortname
 * without any company is a 400.
 */
export async function findAgentByRef(db: Db, ref: string, context: { companyId?: string; callerCompanyId: string | null }) {
  if (UUID_PATTERN.test(ref)) {
    const agent = await findAgent(db, ref);
    return agent && context.companyId && agent.companyId !== context.companyId ? undefined : agent;
  }
  const companyId = context.companyId ?? context.callerCompanyId;
  if (!companyId) throw badRequest("An agent shortname needs company context: pass ?companyId= (or call as an agent)");
  const rows = await db
    .select()
    .from(agents)
    .where(and(eq(agents.companyId, companyId), eq(agents.urlKey, ref.toLowerCase())));
  return rows.find((r) => r.status !== "terminated") ?? rows[0];
}

/** Whether the agent is the CEO (role `ceo`) of the company. */
export async function isCompanyCeoAgent(db: Db, agentId: string, companyId: string) {
  const agent = await findAgent(db, agentId);
  return agent?.role === "ceo" && agent.companyId === companyId;
}

/** The company's non-terminated agents, oldest first; redacted unless the caller may read configuration (its own record stays complete). */
export async function listAgentViews(db: Db, companyId: string, actor: Actor) {
  const rows = await db
    .select()
    .from(agents)
    .where(and(eq(agents.companyId, companyId), ne(agents.status, "terminated")))
    .orderBy(agents.createdAt, agents.id);
  const readable = await canReadAgentConfig(db, actor, companyId);
  return buildAgentViews(db, companyId, rows, (a) => !readable && !(actor.type === "agent" && actor.agentId === a.id));
}

/** One agent's view as this caller may see it. */
export async function agentViewFor(db: Db, agent: AgentRow, actor: Actor) {
  const readable = await canReadAgentConfig(db, actor, agent.companyId, agent.id);
  return buildAgentView(db, agent, !readable);
}

/** The calling agent's own record (complete); 404 when it no longer exists. */
export async function ownAgentView(db: Db, agentId: string) {
  const agent = await findAgent(db, agentId);
  if (!agent) throw notFound("Agent not found");
  return buildAgentView(db, agent);
}

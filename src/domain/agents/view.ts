// The agent read view: the record plus chainOfCommand and access; a redacted variant without
// configuration for callers who may not read it. Secret-looking values are always redacted.
import { inIds } from "../../db/id-list";
import { and, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { redactSecrets } from "../redaction";
import { currentMonthSpend } from "../time";
import { ancestorsOf, isLegacyAgentCreator } from "../authorization/assignment";
import { storedDesiredSkills } from "./skills";

export type AgentRow = typeof schema.agents.$inferSelect;
export type MembershipRow = typeof schema.companyMemberships.$inferSelect;
export type GrantRow = typeof schema.principalPermissionGrants.$inferSelect;
export type TaskAssignSource = "ceo_role" | "agent_creator" | "explicit_grant" | "simple_default" | "none";

export interface AgentAccess {
  canAssignTasks: boolean;
  taskAssignSource: TaskAssignSource;
  membership: MembershipRow | null;
  grants: GrantRow[];
}

/**
 * Where the agent's general assignment authority comes from (mirrors the assignment rule):
 * the CEO role, legacy canCreateAgents, an explicit tasks:assign / tasks:assign_scope grant,
 * else none. `simple_default` is the board members' company-wide default and never applies to
 * agents: without one of the above an agent may only assign to itself, its reporting subtree,
 * up its own chain of command or to humans.
 */
export function taskAssignSource(agent: AgentRow, membership: MembershipRow | null, grants: GrantRow[]): TaskAssignSource {
  if (agent.status === "terminated" || agent.status === "pending_approval") return "none";
  if (membership && membership.status !== "active") return "none";
  if (agent.role === "ceo") return "ceo_role";
  if (isLegacyAgentCreator(agent)) return "agent_creator";
  if (grants.some((g) => g.permissionKey === "tasks:assign" || g.permissionKey === "tasks:assign_scope")) return "explicit_grant";
  return "none";
}

export interface ChainLink {
  id: string;
  name: string;
  role: string;
  title: string | null;
}

export function agentView(agent: AgentRow, extras: { chainOfCommand: ChainLink[]; access: AgentAccess }, options: { redacted: boolean; now?: string }) {
  const base = {
    id: agent.id,
    companyId: agent.companyId,
    name: agent.name,
    urlKey: agent.urlKey,
    role: agent.role,
    title: agent.title,
    icon: agent.icon,
    capabilities: agent.capabilities,
    reportsTo: agent.reportsTo,
    adapterType: agent.adapterType,
    budgetMonthlyCents: agent.budgetMonthlyCents,
    spentMonthlyCents: currentMonthSpend(agent.spentMonthlyCents, agent.spentMonth, options.now),
    status: agent.status,
    pauseReason: agent.pauseReason,
    permissions: {
      canCreateAgents: agent.permissions?.canCreateAgents === true,
      ...(agent.permissions?.authorizationPolicy ? { authorizationPolicy: agent.permissions.authorizationPolicy as Record<string, unknown> } : {}),
    },
    desiredSkills: storedDesiredSkills(agent.adapterConfig),
    metadata: agent.metadata ?? null,
    lastHeartbeatAt: agent.lastHeartbeatAt,
    terminatedAt: agent.terminatedAt,
    createdAt: agent.createdAt,
    updatedAt: agent.updatedAt,
    chainOfCommand: extras.chainOfCommand,
    access: extras.access,
  };
  if (options.redacted) return { ...base, metadata: null, configRedacted: true as const };
  return {
    ...base,
    adapterConfig: redactSecrets(agent.adapterConfig ?? {}),
    runtimeConfig: redactSecrets(agent.runtimeConfig ?? {}),
    metadata: agent.metadata ? redactSecrets(agent.metadata) : null,
    configRedacted: false as const,
  };
}

export type AgentView = ReturnType<typeof agentView>;

/**
 * Views for agents of one company. `redacted(agent)` decides per agent. Loads the company's
 * org tree (for chains) and the agents' memberships and grants in three reads.
 */
export async function buildAgentViews(db: Db, companyId: string, rows: AgentRow[], redacted: (agent: AgentRow) => boolean): Promise<AgentView[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [tree, memberships, grants] = await Promise.all([
    db
      .select({ id: schema.agents.id, name: schema.agents.name, role: schema.agents.role, title: schema.agents.title, reportsTo: schema.agents.reportsTo })
      .from(schema.agents)
      .where(eq(schema.agents.companyId, companyId)),
    db
      .select()
      .from(schema.companyMemberships)
      .where(
        and(
          eq(schema.companyMemberships.companyId, companyId),
          eq(schema.companyMemberships.principalType, "agent"),
          inIds(schema.companyMemberships.principalId, ids),
        ),
      ),
    db
      .select()
      .from(schema.principalPermissionGrants)
      .where(
        and(
          eq(schema.principalPermissionGrants.companyId, companyId),
          eq(schema.principalPermissionGrants.principalType, "agent"),
          inIds(schema.principalPermissionGrants.principalId, ids),
        ),
      )
      .orderBy(schema.principalPermissionGrants.createdAt),
  ]);
  const byId = new Map(tree.map((t) => [t.id, t]));
  const hierarchy = new Map(tree.map((t) => [t.id, t.reportsTo]));
  return rows.map((agent) => {
    const chainOfCommand = ancestorsOf(hierarchy, agent.id).flatMap((id) => {
      const link = byId.get(id);
      return link ? [{ id: link.id, name: link.name, role: link.role, title: link.title }] : [];
    });
    const membership = memberships.find((m) => m.principalId === agent.id) ?? null;
    const agentGrants = grants.filter((g) => g.principalId === agent.id);
    const source = taskAssignSource(agent, membership, agentGrants);
    return agentView(
      agent,
      { chainOfCommand, access: { canAssignTasks: source !== "none", taskAssignSource: source, membership, grants: agentGrants } },
      { redacted: redacted(agent) },
    );
  });
}

export async function buildAgentView(db: Db, agent: AgentRow, redacted = false): Promise<AgentView> {
  const [view] = await buildAgentViews(db, agent.companyId, [agent], () => redacted);
  return view;
}

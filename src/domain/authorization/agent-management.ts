// Who may read and change agent configuration: the `agents:create` permission (role default or
// explicit company-wide grant) or, for agent callers, legacy `permissions.canCreateAgents` / the CEO role.
import { and, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import type { PrincipalType } from "../../db/schema/access";
import { hasInstanceWideAccess, type Actor } from "../actor";
import { defaultGrantsForRole } from "./permission-keys";
import { isLegacyAgentCreator } from "./assignment";

const isCompanyWide = (scope: Record<string, unknown> | null) => !scope || Object.keys(scope).length === 0;

async function hasExplicitGrant(db: Db, companyId: string, principalType: PrincipalType, principalId: string, key: string) {
  const rows = await db
    .select({ scope: schema.principalPermissionGrants.scope })
    .from(schema.principalPermissionGrants)
    .where(
      and(
        eq(schema.principalPermissionGrants.companyId, companyId),
        eq(schema.principalPermissionGrants.principalType, principalType),
        eq(schema.principalPermissionGrants.principalId, principalId),
        eq(schema.principalPermissionGrants.permissionKey, key),
      ),
    );
  return rows.some((r) => isCompanyWide(r.scope));
}

/** Hire/create agents and run agent-configuration mutations in the company. */
export async function canManageAgents(db: Db, actor: Actor, companyId: string): Promise<boolean> {
  if (actor.type === "none") return false;
  if (hasInstanceWideAccess(actor)) return true;
  if (actor.type === "board") {
    const membership = await db.query.companyMemberships.findFirst({
      where: and(
        eq(schema.companyMemberships.companyId, companyId),
        eq(schema.companyMemberships.principalType, "user"),
        eq(schema.companyMemberships.principalId, actor.userId),
        eq(schema.companyMemberships.status, "active"),
      ),
    });
    if (!membership) return false;
    if (defaultGrantsForRole(membership.membershipRole).includes("agents:create")) return true;
    return hasExplicitGrant(db, companyId, "user", actor.userId, "agents:create");
  }
  if (actor.companyId !== companyId) return false;
  const agent = await db.query.agents.findFirst({ where: eq(schema.agents.id, actor.agentId) });
  if (!agent || agent.companyId !== companyId) return false;
  if (isLegacyAgentCreator(agent)) return true;
  return hasExplicitGrant(db, companyId, "agent", actor.agentId, "agents:create");
}

/**
 * Read agent configuration: human board members of the company by membership alone (and full-trust
 * boards); an agent for its own record; other agents need agents:create or legacy creator authority.
 */
export async function canReadAgentConfig(db: Db, actor: Actor, companyId: string, agentId?: string): Promise<boolean> {
  if (actor.type === "none") return false;
  if (actor.type === "board") return hasInstanceWideAccess(actor) || actor.companyIds.includes(companyId);
  if (actor.companyId !== companyId) return false;
  if (agentId && actor.agentId === agentId) return true;
  return canManageAgents(db, actor, companyId);
}

// Company permission checks for access management: role-default grants plus explicit
// company-wide grant rows; the local board and instance admins hold every key.
import { and, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import type { PrincipalType } from "../../db/schema/access";
import { hasInstanceWideAccess, type Actor } from "../actor";
import { forbidden } from "../errors";
import { defaultGrantsForRole, type MembershipRoleName, type PermissionKey } from "../authorization/permission-keys";

const isCompanyWide = (scope: Record<string, unknown> | null) => !scope || Object.keys(scope).length === 0;

/** The keys a principal holds company-wide: role defaults (users) plus explicit unscoped grants. */
export async function effectivePermissions(
  db: Db,
  companyId: string,
  principalType: PrincipalType,
  principalId: string,
): Promise<{ role: MembershipRoleName | null; keys: Set<PermissionKey> }> {
  const [memberships, grants] = await db.batch([
    db
      .select({ role: schema.companyMemberships.membershipRole })
      .from(schema.companyMemberships)
      .where(
        and(
          eq(schema.companyMemberships.companyId, companyId),
          eq(schema.companyMemberships.principalType, principalType),
          eq(schema.companyMemberships.principalId, principalId),
          eq(schema.companyMemberships.status, "active"),
        ),
      ),
    db
      .select({ key: schema.principalPermissionGrants.permissionKey, scope: schema.principalPermissionGrants.scope })
      .from(schema.principalPermissionGrants)
      .where(
        and(
          eq(schema.principalPermissionGrants.companyId, companyId),
          eq(schema.principalPermissionGrants.principalType, principalType),
          eq(schema.principalPermissionGrants.principalId, principalId),
        ),
      ),
  ]);
  const role = memberships[0]?.role ?? null;
  const keys = new Set<PermissionKey>();
  // Users hold their role's defaults; agents hold explicit grants only. An inactive member holds nothing.
  if (principalType === "user") {
    if (!role) return { role, keys };
    for (const k of defaultGrantsForRole(role)) keys.add(k);
  }
  for (const g of grants) if (isCompanyWide(g.scope)) keys.add(g.key as PermissionKey);
  return { role, keys };
}

export async function hasCompanyPermission(db: Db, actor: Actor, companyId: string, key: PermissionKey): Promise<boolean> {
  if (hasInstanceWideAccess(actor)) return true;
  if (actor.type === "board") return (await effectivePermissions(db, companyId, "user", actor.userId)).keys.has(key);
  if (actor.type === "agent") {
    if (actor.companyId !== companyId) return false;
    return (await effectivePermissions(db, companyId, "agent", actor.agentId)).keys.has(key);
  }
  return false;
}

/** 403 unless the caller holds `key` in the company (call after the company access guard). */
export async function requireCompanyPermission(db: Db, actor: Actor, companyId: string, key: PermissionKey) {
  if (!(await hasCompanyPermission(db, actor, companyId, key))) {
    throw forbidden(`Requires the ${key} permission in this company`, { permissionKey: key });
  }
}

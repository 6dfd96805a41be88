// Permission keys of principal grants, and the grants each membership role gets by default.
import type { MembershipRole } from "../../db/schema/access";

export const permissionKeys = [
  "agents:create",
  "tasks:assign",
  "tasks:assign_scope",
  "tasks:manage_active_checkouts",
  "environments:manage",
  "users:invite",
  "users:manage_permissions",
  "joins:approve",
] as const;
export type PermissionKey = (typeof permissionKeys)[number];

export type MembershipRoleName = MembershipRole;

/** Company-wide keys a role holds without explicit grants (owner all; admin all but users:manage_permissions; member tasks:assign; viewer none). */
export function defaultGrantsForRole(role: MembershipRoleName): PermissionKey[] {
  switch (role) {
    case "owner":
      return permissionKeys.filter((k) => k !== "tasks:assign_scope");
    case "admin":
      return permissionKeys.filter((k) => k !== "tasks:assign_scope" && k !== "users:manage_permissions");
    case "member":
      return ["tasks:assign"];
    case "viewer":
      return [];
  }
}

// Company members: list, user directory, role/status changes, grants, archive, role-and-grants.
// Every change needs users:manage_permissions; the last active owner is never demoted or deactivated.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../http/router";
import { dbOf } from "../../http/db";
import { requireCompanyAccess } from "../../http/access";
import { runCompanyCommand } from "../../company/client";
import { listMembers, updateMember } from "../../domain/access/members";
import { requireCompanyPermission } from "../../domain/access/permissions";
import { userDirectory } from "../../domain/access/queries";
import { CompanyIdParam, errors, jsonBody, jsonContent, optionalJsonBody } from "../../schemas/common";
import {
  ArchiveMemberSchema,
  MemberIdParam,
  MemberPermissionsSchema,
  MemberSchema,
  RoleAndGrantsSchema,
  UpdateMemberSchema,
  UserDirectoryEntrySchema,
} from "../../schemas/access/members";
import type { Context } from "hono";
import type { AppEnv } from "../../env";

const tags = ["Members"];
export const membersRouter = createRouter();

async function guardManage(c: Context<AppEnv>, companyId: string) {
  await requireCompanyAccess(c, companyId, { board: true });
  await requireCompanyPermission(dbOf(c), c.get("actor"), companyId, "users:manage_permissions");
}

membersRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/members",
    tags,
    summary: "Every membership of the company (users with name and email, agents with name), with explicit and effective permissions (board)",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(MemberSchema), "Members"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    return c.json(await listMembers(dbOf(c), companyId, { includeEmail: true }), 200);
  },
);

membersRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/user-directory",
    tags,
    summary: "The company's active users for pickers: id, name, slug, image, role (board and the company's agents)",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(UserDirectoryEntrySchema), "Users"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await userDirectory(dbOf(c), companyId), 200);
  },
);

membersRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/companies/{companyId}/members/{memberId}",
    tags,
    summary: "Change a member's role and/or status (needs users:manage_permissions; owner role changes need an owner; 409 for the last active owner)",
    request: { params: MemberIdParam, body: jsonBody(UpdateMemberSchema) },
    responses: { 200: jsonContent(MemberSchema, "The member"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const { companyId, memberId } = c.req.valid("param");
    await guardManage(c, companyId);
    return c.json(await runCompanyCommand(c.env, companyId, updateMember, c.get("actor"), { memberId, ...c.req.valid("json") }), 200);
  },
);

membersRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/companies/{companyId}/members/{memberId}/permissions",
    tags,
    summary: "Replace a member's explicit grants (needs users:manage_permissions); logs company_member.updated",
    request: { params: MemberIdParam, body: jsonBody(MemberPermissionsSchema) },
    responses: { 200: jsonContent(MemberSchema, "The member"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId, memberId } = c.req.valid("param");
    await guardManage(c, companyId);
    const { grants } = c.req.valid("json");
    return c.json(await runCompanyCommand(c.env, companyId, updateMember, c.get("actor"), { memberId, grants }), 200);
  },
);

membersRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/members/{memberId}/archive",
    tags,
    summary: "Archive a member: status inactive (body optional, default {}); 409 for the last active owner",
    request: { params: MemberIdParam, body: optionalJsonBody(ArchiveMemberSchema) },
    responses: { 200: jsonContent(MemberSchema, "The member"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const { companyId, memberId } = c.req.valid("param");
    await guardManage(c, companyId);
    return c.json(await runCompanyCommand(c.env, companyId, updateMember, c.get("actor"), { memberId, status: "inactive" }), 200);
  },
);

membersRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/companies/{companyId}/members/{memberId}/role-and-grants",
    tags: ["Members", "Agents"],
    summary: "Change role, status and the whole grant set at once (needs users:manage_permissions); logs company_member.updated",
    description:
      "grants, when given, replaces every explicit grant of the member (existing rows are deleted first, in the same batch). Refuses (409) to demote, deactivate or archive the last active owner.",
    request: { params: MemberIdParam, body: jsonBody(RoleAndGrantsSchema) },
    responses: { 200: jsonContent(MemberSchema, "The member"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const { companyId, memberId } = c.req.valid("param");
    await guardManage(c, companyId);
    return c.json(await runCompanyCommand(c.env, companyId, updateMember, c.get("actor"), { memberId, ...c.req.valid("json") }), 200);
  },
);

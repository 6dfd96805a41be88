// Companies: list, stats, get, create, patch, branding, archive, delete.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireBoard, requireCompanyAccess, scopeRequestToCompany } from "../http/access";
import type { Actor } from "../domain/actor";
import { forbidden, notFound } from "../domain/errors";
import { runCompanyCommand } from "../company/client";
import { companyObject } from "../company/client";
import { createCompany } from "../domain/companies/create";
import { companyView } from "../domain/companies/view";
import { companyStats, findCompanyView, listVisibleCompanies } from "../domain/companies/queries";
import { isCompanyCeoAgent } from "../domain/agents/queries";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import {
  BrandingSchema,
  CompanyListQuery,
  CompanySchema,
  CompanyStatsSchema,
  CreateCompanySchema,
  DeletedCompanySchema,
  UpdateCompanySchema,
} from "../schemas/companies";
import { archiveCompany, deleteCompany, updateCompany } from "../domain/companies/commands";

const tags = ["Companies"];
const MANAGER_ROLES = ["owner", "admin"] as const;
const BRANDING_FIELDS = new Set(["name", "description", "brandColor", "logoAssetId"]);

export const companiesRouter = createRouter();

/** The company's CEO agent (role `ceo`) acting in its own company. */
async function isCeoAgent(c: Context<AppEnv>, actor: Actor, companyId: string) {
  if (actor.type !== "agent" || actor.companyId !== companyId) return false;
  return isCompanyCeoAgent(dbOf(c), actor.agentId, companyId);
}

companiesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies",
    tags,
    summary: "Companies the board caller can access (archived ones only with includeArchived=true)",
    request: { query: CompanyListQuery },
    responses: { 200: jsonContent(z.array(CompanySchema), "Companies"), ...errors(401, 403) },
  }),
  async (c) => {
    const actor = requireBoard(c);
    const { includeArchived } = c.req.valid("query");
    return c.json(await listVisibleCompanies(dbOf(c), actor, includeArchived === "true"), 200);
  },
);

companiesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/stats",
    tags,
    summary: "Agent and issue counts keyed by company id",
    responses: { 200: jsonContent(CompanyStatsSchema, "Counts per company"), ...errors(401, 403) },
  }),
  async (c) => {
    const actor = requireBoard(c);
    return c.json(await companyStats(dbOf(c), actor), 200);
  },
);

companiesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}",
    tags,
    summary: "Get a company",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(CompanySchema, "The company"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const company = await requireCompanyAccess(c, companyId);
    return c.json(companyView(company), 200);
  },
);

companiesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies",
    tags,
    summary: "Create a company (the caller becomes its owner)",
    request: { body: jsonBody(CreateCompanySchema) },
    responses: { 201: jsonContent(CompanySchema, "The new company"), ...errors(400, 401, 403) },
  }),
  async (c) => {
    const actor = requireBoard(c);
    const db = dbOf(c);
    const id = await createCompany(c.env, db, actor, c.req.valid("json"));
    // The new company's shard is the rest of the request's.
    await scopeRequestToCompany(c, id);
    return c.json((await findCompanyView(db, id))!, 201);
  },
);

companiesRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/companies/{companyId}",
    tags,
    summary: "Update a company (board owner/admin: every field; the company's CEO agent: branding fields only)",
    request: { params: CompanyIdParam, body: jsonBody(UpdateCompanySchema) },
    responses: { 200: jsonContent(CompanySchema, "The updated company"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const fields = c.req.valid("json");
    const actor = c.get("actor");
    if (actor.type === "agent") {
      await requireCompanyAccess(c, companyId);
      if (!(await isCeoAgent(c, actor, companyId))) throw forbidden("Only the company's CEO agent may update the company");
      const outside = Object.keys(fields).filter((k) => !BRANDING_FIELDS.has(k));
      if (outside.length) throw forbidden(`The CEO agent may only update branding fields; not allowed: ${outside.join(", ")}`);
    } else {
      await requireCompanyAccess(c, companyId, { board: true, roles: [...MANAGER_ROLES] });
    }
    const company = await runCompanyCommand(c.env, companyId, updateCompany, actor, { fields, action: "company.updated" });
    return c.json(company, 200);
  },
);

companiesRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/companies/{companyId}/branding",
    tags,
    summary: "Update branding: name, description, brandColor, logoAssetId (board owner/admin or the company's CEO agent)",
    request: { params: CompanyIdParam, body: jsonBody(BrandingSchema) },
    responses: { 200: jsonContent(CompanySchema, "The updated company"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const actor = c.get("actor");
    if (actor.type === "agent") {
      await requireCompanyAccess(c, companyId);
      if (!(await isCeoAgent(c, actor, companyId))) throw forbidden("Only the company's CEO agent may update branding");
    } else {
      await requireCompanyAccess(c, companyId, { board: true, roles: [...MANAGER_ROLES] });
    }
    const company = await runCompanyCommand(c.env, companyId, updateCompany, actor, {
      fields: c.req.valid("json"),
      action: "company.branding_updated",
    });
    return c.json(company, 200);
  },
);

companiesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/archive",
    tags,
    summary: "Archive a company: it leaves default listings, its active agents are paused",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(CompanySchema, "The archived company"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true, roles: [...MANAGER_ROLES] });
    return c.json(await runCompanyCommand(c.env, companyId, archiveCompany, c.get("actor"), {}), 200);
  },
);

companiesRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/companies/{companyId}",
    tags,
    summary: "Delete a company and all its data (irreversible; board owner)",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(DeletedCompanySchema, "Deleted"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true, roles: ["owner"] });
    const result = await runCompanyCommand(c.env, companyId, deleteCompany, c.get("actor"), {});
    await companyObject(c.env, companyId).purge();
    if (!result.deleted) throw notFound("Company not found");
    return c.json(result, 200);
  },
);

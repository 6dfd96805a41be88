// Company activity log: read (any company caller) and board-written entries.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireCompanyAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { activityView } from "../domain/activity/view";
import { listCompanyActivity } from "../domain/activity/queries";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import { ActivityListQuery, ActivitySchema, CreateActivitySchema } from "../schemas/activity";
import { recordActivity } from "../domain/activity/commands";

const tags = ["Activity"];
export const activityRouter = createRouter();

activityRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/activity",
    tags,
    summary: "Company activity, newest first (exact-match filters; no pagination; entries of hidden issues left out)",
    request: { params: CompanyIdParam, query: ActivityListQuery },
    responses: { 200: jsonContent(z.array(ActivitySchema), "Activity records"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const query = c.req.valid("query");
    await requireCompanyAccess(c, companyId);
    return c.json(await listCompanyActivity(dbOf(c), companyId, query), 200);
  },
);

activityRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/activity",
    tags,
    summary: "Append an activity record (board only; secret-looking values in details are redacted)",
    request: { params: CompanyIdParam, body: jsonBody(CreateActivitySchema) },
    responses: { 201: jsonContent(ActivitySchema, "The record"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    const body = c.req.valid("json");
    const row = await runCompanyCommand(c.env, companyId, recordActivity, c.get("actor"), {
      ...body,
      agentId: body.agentId ?? null,
      details: body.details ?? null,
    });
    return c.json(activityView(row), 201);
  },
);

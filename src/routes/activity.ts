// Company activity log: read (any company caller) and board-written entries.
import { createRoute, z } from "@hono/zod-openapi";
import { and, desc, eq, sql } from "drizzle-orm";
import { createRouter } from "../http/router";
import { createDb, schema } from "../db/client";
import { requireCompanyAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { activityView } from "../domain/activity/view";
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
    const t = schema.activityLog;
    const rows = await createDb(c.env.DB)
      .select()
      .from(t)
      .where(
        and(
          eq(t.companyId, companyId),
          query.agentId ? eq(t.agentId, query.agentId) : undefined,
          query.entityType ? eq(t.entityType, query.entityType) : undefined,
          query.entityId ? eq(t.entityId, query.entityId) : undefined,
          sql`NOT (${t.entityType} = 'issue' AND ${t.entityId} IN (SELECT id FROM issues WHERE company_id = ${companyId} AND hidden_at IS NOT NULL))`,
        ),
      )
      .orderBy(desc(t.createdAt), desc(sql`rowid`));
    return c.json(rows.map(activityView), 200);
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

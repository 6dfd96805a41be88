// Company activity log: read (any company caller) and board-written entries.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireCompanyAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { activityView } from "../domain/activity/view";
import { listCompanyActivity, pageCompanyActivity } from "../domain/activity/queries";
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
    summary: "Company activity, newest first (exact-match filters; entries of hidden issues left out)",
    description:
      "An array, newest first: without `limit` and `cursor` the whole list (the spec's answer); with `limit` (at most 500) the newest `limit` entries, as the incumbent " +
      "answers it. When more entries follow, the response's `X-Next-Cursor` header names the next page: pass it back as `cursor` (with the same filters and `limit`, " +
      "default 100). A cursor this list did not give: 400.",
    request: { params: CompanyIdParam, query: ActivityListQuery },
    responses: {
      200: {
        ...jsonContent(z.array(ActivitySchema), "Activity records"),
        headers: z.object({ "X-Next-Cursor": z.string().optional().openapi({ description: "The next page's cursor, when more entries follow" }) }),
      },
      ...errors(400, 401, 403, 404),
    },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const { limit, cursor, ...filters } = c.req.valid("query");
    await requireCompanyAccess(c, companyId);
    if (limit === undefined && cursor === undefined) return c.json(await listCompanyActivity(dbOf(c), companyId, filters), 200);
    const page = await pageCompanyActivity(dbOf(c), companyId, filters, { cursor, limit: limit ?? 100 });
    if (page.nextCursor) c.header("X-Next-Cursor", page.nextCursor);
    return c.json(page.activity, 200);
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

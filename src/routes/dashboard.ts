// Dashboard: the company's health snapshot.
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { addCompanyAccessCheck } from "../http/access";
import { notFound } from "../domain/errors";
import { addDashboardRead } from "../domain/dashboard/snapshot";
import { ReadBatch } from "../db/read-batch";
import { CompanyIdParam, errors, jsonContent } from "../schemas/common";
import { DashboardSchema } from "../schemas/dashboard";

export const dashboardRouter = createRouter();

dashboardRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/dashboard",
    tags: ["Dashboard"],
    summary: "Company health snapshot: agents, tasks, this UTC month's costs, pending approvals, budget state",
    description: "Read-only; 403 for a caller of another company, 404 for a missing company. No recent activity or stale-task details.",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(DashboardSchema, "The snapshot"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const batch = new ReadBatch(dbOf(c));
    const access = addCompanyAccessCheck(c, batch, companyId);
    const read = addDashboardRead(batch, companyId, new Date().toISOString());
    await batch.run();
    access();
    const snapshot = read();
    if (!snapshot) throw notFound("Company not found");
    return c.json(snapshot, 200);
  },
);

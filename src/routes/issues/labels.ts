// Issue labels of a company (extra routes: labels are referenced by id in labelIds and the labelId filter).
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../http/router";
import { dbOf } from "../../http/db";
import { requireCompanyAccess } from "../../http/access";
import { runCompanyCommand } from "../../company/client";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../../schemas/common";
import { CreateLabelSchema, LabelSchema } from "../../schemas/issues";
import { listLabels } from "../../domain/issues/queries";
import { createLabel } from "../../domain/issues/commands";

const tags = ["Issues"];
export const issueLabelsRouter = createRouter();

issueLabelsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/labels",
    tags,
    summary: "Issue labels of the company, by name (extra route: labels are referenced by id in labelIds and the labelId filter)",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(LabelSchema), "Labels"), ...errors(401, 403, 404) },
  }),

  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await listLabels(dbOf(c), companyId), 200);
  },
);

issueLabelsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/labels",
    tags,
    summary: "Create an issue label (extra route; names are unique per company regardless of case: 409)",
    request: { params: CompanyIdParam, body: jsonBody(CreateLabelSchema) },
    responses: { 201: jsonContent(LabelSchema, "The label"), ...errors(400, 401, 403, 404, 409) },
  }),

  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const label = await runCompanyCommand(c.env, companyId, createLabel, c.get("actor"), c.req.valid("json"));
    return c.json(label, 201);
  },
);

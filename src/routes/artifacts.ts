// Company artifacts (documents, attachments and work products in one paged projection)
// and the work products of an issue.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireCompanyAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { queryArtifacts } from "../domain/artifacts/query";
import { requireIssue } from "./issues/guard";
import { workProductsForIssue } from "../domain/attachments/summaries";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import { IssueIdParam } from "../schemas/documents";
import { ArtifactsEnvelopeSchema, ArtifactsQuery } from "../schemas/artifacts";
import { CreateWorkProductSchema, WorkProductSchema } from "../schemas/attachments";
import { createWorkProduct } from "../domain/attachments/commands";

export const artifactsRouter = createRouter();

artifactsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/artifacts",
    tags: ["Artifacts"],
    summary: "The company's artifacts: issue documents, attachments and work products, newest first",
    description:
      "Returns { artifacts, nextCursor }; with groupBy task or parent_task { groups, nextCursor }; with groupIssueId the group's { artifacts, nextCursor, selectedGroup }. " +
      "Ordered by updatedAt then id (descending) and paged by an opaque keyset cursor, so artifacts added between pages neither repeat nor push others out. Hidden issues are left out.",
    request: { params: CompanyIdParam, query: ArtifactsQuery },
    responses: { 200: jsonContent(ArtifactsEnvelopeSchema, "Artifacts envelope"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const query = c.req.valid("query");
    await requireCompanyAccess(c, companyId);
    return c.json(await queryArtifacts(dbOf(c), { ...query, companyId }), 200);
  },
);

artifactsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/issues/{issueId}/work-products",
    tags: ["Artifacts"],
    summary: "Record a work product of an issue (a pull request, preview URL, report…); it appears among the company's artifacts",
    description: "Any caller with access to the issue's company; createdByAgent is the calling agent. Records issue.work_product_created.",
    request: { params: IssueIdParam, body: jsonBody(CreateWorkProductSchema) },
    responses: { 201: jsonContent(WorkProductSchema, "The work product"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    const input = c.req.valid("json");
    const { issue, actor } = await requireIssue(c, c.req.valid("param").issueId);
    return c.json(await runCompanyCommand(c.env, issue.companyId, createWorkProduct, actor, { ...input, issueId: issue.id }), 201);
  },
);

artifactsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/issues/{issueId}/work-products",
    tags: ["Artifacts"],
    summary: "Work products of an issue, oldest first",
    request: { params: IssueIdParam },
    responses: { 200: jsonContent(z.array(WorkProductSchema), "Work products"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    const { issue } = await requireIssue(c, c.req.valid("param").issueId);
    return c.json(await workProductsForIssue(dbOf(c), issue.id), 200);
  },
);

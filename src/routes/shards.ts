// Shards: each database's company count, and moving a company to another shard (instance admin).
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireBoard, requireInstanceAdmin } from "../http/access";
import { listShards } from "../domain/shards/queries";
import { moveCompany } from "../domain/shards/move";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import { MoveCompanySchema, MoveResultSchema, ShardSchema } from "../schemas/shards";

const tags = ["Instance"];
export const shardsRouter = createRouter();

shardsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/instance/shards",
    tags,
    summary: "The databases companies live on, with their company counts (board)",
    responses: { 200: jsonContent(z.array(ShardSchema), "Shards"), ...errors(401, 403) },
  }),
  async (c) => {
    requireBoard(c);
    return c.json(await listShards(c.env, dbOf(c)), 200);
  },
);

shardsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/instance/companies/{companyId}/move",
    operationId: "moveCompany",
    tags,
    summary: "Move a company to another shard, keeping every id (instance admin)",
    description:
      "Fences the company (its writes answer 503 with Retry-After), copies its rows, verifies each table's count and hash on both shards, " +
      "points the directory at the new shard and lifts the fence, then deletes the old copy. A failure before the directory changes " +
      "deletes the partial copy and lifts the fence: the company stays where it was (503 with the failed stage in details).",
    request: { params: CompanyIdParam, body: jsonBody(MoveCompanySchema) },
    responses: { 200: jsonContent(MoveResultSchema, "The move"), ...errors(400, 401, 403, 404, 409, 503) },
  }),
  async (c) => {
    requireInstanceAdmin(c);
    const { companyId } = c.req.valid("param");
    return c.json(await moveCompany(c.env, companyId, c.req.valid("json").shard), 200);
  },
);

// The company search: one box over the company's issues, agents, projects, issue documents and
// wiki pages (src/domain/search/queries.ts), for board members and the company's agents.
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { addCompanyAccessCheck, requireActor } from "../http/access";
import { ReadBatch } from "../db/read-batch";
import { addCompanySearch } from "../domain/search/queries";
import { CompanyIdParam, errors, jsonContent } from "../schemas/common";
import { SearchQuery, SearchResponseSchema } from "../schemas/search";

export const searchRouter = createRouter();

searchRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/search",
    operationId: "searchCompany",
    tags: ["Search"],
    summary: "Search the company: issues, agents, projects, issue documents and wiki pages (board members and the company's agents)",
    description:
      "Issues match as the issue list's `q` (title, identifier, comments, description); agents by name or title (not terminated); projects by name or description; " +
      "issue documents by title or latest body (not of hidden issues); wiki pages by title or body words (the wiki's full-text index, while the knowledge-wiki plugin is ready; " +
      "board-only spaces for board callers only). Case-insensitive (ASCII letters), every character literal. Order: an exact identifier or name first, then a name or title " +
      "starting with q, then containing it, then a match in another field; within that, issues, agents, projects, documents, wiki pages, each in its own order.",
    request: { params: CompanyIdParam, query: SearchQuery },
    responses: { 200: jsonContent(SearchResponseSchema, "Results, best first"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const batch = new ReadBatch(dbOf(c));
    const access = addCompanyAccessCheck(c, batch, companyId);
    const results = addCompanySearch(batch, requireActor(c), companyId, c.req.valid("query"));
    await batch.run();
    access();
    return c.json({ results: results() }, 200);
  },
);

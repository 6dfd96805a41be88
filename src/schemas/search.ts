// The company search: its query and results (a result names what it found, enough to open it).
import { z } from "@hono/zod-openapi";
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, MAX_SEARCH_QUERY_LENGTH } from "../domain/search/queries";

export const SearchQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1, "q is required (1 to 200 characters)")
    .max(MAX_SEARCH_QUERY_LENGTH, `q is at most ${MAX_SEARCH_QUERY_LENGTH} characters`)
    .openapi({ description: "What to find (case-insensitive; every character literal)", example: "deploy" }),
  limit: z.coerce
    .number()
    .int()
    .min(1, `limit must be between 1 and ${MAX_SEARCH_LIMIT}`)
    .max(MAX_SEARCH_LIMIT, `limit must be between 1 and ${MAX_SEARCH_LIMIT}`)
    .optional()
    .openapi({ description: `Default ${DEFAULT_SEARCH_LIMIT}, at most ${MAX_SEARCH_LIMIT}` }),
});

const found = {
  id: z.string(),
  title: z.string().openapi({ description: "The issue's or document's title, the agent's or project's name, the page's title" }),
  snippet: z.string().openapi({ description: "Plain text around the first match (else the start), up to 180 characters; … where the text goes on" }),
};

export const SearchResultSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("issue"), ...found, identifier: z.string() }).openapi("IssueSearchResult"),
    z.object({ kind: z.literal("agent"), ...found }).openapi("AgentSearchResult"),
    z.object({ kind: z.literal("project"), ...found }).openapi("ProjectSearchResult"),
    z
      .object({ kind: z.literal("document"), ...found, issueId: z.string(), issueIdentifier: z.string(), key: z.string() })
      .openapi("DocumentSearchResult", { description: "An issue document: /api/issues/{issueId}/documents/{key}" }),
    z
      .object({ kind: z.literal("wiki_page"), ...found, wikiId: z.string(), spaceSlug: z.string(), path: z.string() })
      .openapi("WikiPageSearchResult", { description: "A knowledge-wiki page: GET /api/plugins/knowledge-wiki/api/page?companyId&wikiId&spaceSlug&path" }),
  ])
  .openapi("SearchResult");

export const SearchResponseSchema = z.object({ results: z.array(SearchResultSchema) }).openapi("SearchResults");

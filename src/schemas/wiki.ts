// The knowledge-wiki plugin's scoped routes (/api/plugins/knowledge-wiki/api/…): request and
// response schemas. The company comes from `companyId` in the query (GET) or the body.
import { z } from "@hono/zod-openapi";
import { JsonObject, Timestamp, Uuid } from "./common";
import { IssueSchema } from "./issues";
import {
  WIKI_ACCESS_SCOPES,
  WIKI_OPERATION_STATUSES,
  WIKI_OPERATION_TYPES,
  WIKI_PAGE_TYPES,
  WIKI_REVISION_CHANGES,
  WIKI_SPACE_STATUSES,
} from "../db/schema/plugins";
import { WIKI_ID_PATTERN } from "../domain/wiki/space";
import { MAX_LIST_LIMIT, MAX_OPERATIONS_LIMIT, MAX_REVISIONS_LIMIT, MAX_SEARCH_LIMIT } from "../domain/wiki/queries";
import { MAX_PATH_LENGTH } from "../domain/wiki/paths";
import { CAPTURE_SOURCE_TYPES } from "../domain/wiki/sources";

const Slug = (what: string) =>
  z
    .string()
    .regex(WIKI_ID_PATTERN, "lowercase letters, digits and dashes (up to 63)")
    .openapi({ description: `${what} (default \`default\`)`, example: "default" });
const wikiFields = { wikiId: Slug("The wiki").optional() };
const spaceFields = { ...wikiFields, spaceSlug: Slug("The space").optional() };
const CompanyId = Uuid.openapi({ description: "The company (the caller must have access to it)" });
const Hash = z
  .string()
  .regex(/^[0-9a-f]{64}$/, "a SHA-256 hex digest")
  .openapi({ description: "SHA-256 (hex) of the page's UTF-8 contents" });

export const WikiSpaceSchema = z
  .object({
    id: z.string(),
    wikiId: z.string(),
    slug: z.string(),
    displayName: z.string(),
    accessScope: z.enum(WIKI_ACCESS_SCOPES),
    status: z.enum(WIKI_SPACE_STATUSES),
    settings: JsonObject,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("WikiSpace");

const Ref = z.object({ id: z.string(), name: z.string() });

export const WikiCompanyQuery = z.object({ companyId: CompanyId, ...wikiFields });
export const WikiOverviewSchema = z
  .object({
    status: z.enum(["ready", "not_bootstrapped"]),
    wikiId: z.string(),
    defaultSpace: WikiSpaceSchema.nullable(),
    managedAgent: Ref.extend({ status: z.string() }).nullable(),
    managedProject: Ref.nullable(),
    managedSkills: z.array(z.object({ id: z.string(), key: z.string(), name: z.string() })),
    operationCount: z.number().int(),
    capabilities: z.array(z.string()),
  })
  .openapi("WikiOverview");

export const WikiCompanyBody = z
  .object({ companyId: CompanyId, ...wikiFields })
  .strict()
  .openapi("WikiCompanyBody");
export const WikiBootstrapSchema = z
  .object({
    status: z.literal("ready"),
    wikiId: z.string(),
    space: WikiSpaceSchema,
    writtenFiles: z.array(z.string()).openapi({ description: "Control files that were missing and are now written" }),
    preservedFiles: z.array(z.string()).openapi({ description: "Control files that existed and were left as they are" }),
    managedAgent: Ref.extend({ status: z.string() }),
    managedProject: Ref,
    managedSkills: z.array(z.object({ id: z.string(), key: z.string(), name: z.string() })),
    managedRoutineIds: z.array(z.string()),
  })
  .openapi("WikiBootstrap");

export const CaptureSourceSchema = z
  .object({
    companyId: CompanyId,
    ...spaceFields,
    sourceType: z.enum(CAPTURE_SOURCE_TYPES).optional().openapi({
      description:
        "Default `manual`; decides the capture cap (issue, comment, document 12,000 characters; cursor_window 60,000; routine_run 120,000; manual, url 250,000). `text` (the incumbent's default) is the plain-text kind: stored as `manual`",
    }),
    title: z.string().trim().max(300).nullish(),
    url: z.url().max(2000).nullish(),
    contents: z.string().openapi({ description: "The source text (larger than its type's cap: 413 naming the cap)" }),
    rawPath: z.string().max(MAX_PATH_LENGTH).nullish().openapi({ description: "Under raw/; default raw/YYYY-MM-DD-<slug>-<hash8>.md" }),
    metadata: JsonObject.nullish(),
  })
  .strict()
  .openapi("CaptureWikiSource");
export const CapturedSourceSchema = z
  .object({
    sourceId: z.string(),
    rawPath: z.string(),
    hash: z.string(),
    title: z.string(),
    created: z.boolean().openapi({ description: "false: the same text was already captured at rawPath" }),
  })
  .openapi("CapturedWikiSource");

export const WikiSpacesSchema = z.object({ spaces: z.array(WikiSpaceSchema) }).openapi("WikiSpaces");
export const WikiSpaceResponseSchema = z.object({ space: WikiSpaceSchema }).openapi("WikiSpaceResponse");
export const CreatedWikiSpaceSchema = z.object({ status: z.literal("created"), space: WikiSpaceSchema }).openapi("CreatedWikiSpace");
export const CreateSpaceSchema = z
  .object({
    companyId: CompanyId,
    ...wikiFields,
    slug: Slug("The new space's slug").optional().openapi({ description: "Default: derived from displayName" }),
    displayName: z.string().trim().min(1).max(200).optional(),
    accessScope: z
      .enum(WIKI_ACCESS_SCOPES)
      .optional()
      .openapi({ description: "`company` (default: every caller of the company) or `board` (board users only)" }),
  })
  .strict()
  .openapi("CreateWikiSpace");
export const SpaceSlugParam = z.object({
  spaceSlug: z
    .string()
    .regex(WIKI_ID_PATTERN, "lowercase letters, digits and dashes (up to 63)")
    .openapi({ param: { name: "spaceSlug", in: "path" }, example: "default" }),
});
export const UpdateSpaceSchema = z
  .object({
    companyId: CompanyId,
    ...wikiFields,
    displayName: z.string().trim().min(1).max(200).optional(),
    status: z.enum(WIKI_SPACE_STATUSES).optional().openapi({ description: "`archived` hides the space and makes it read-only (not the default space)" }),
    settings: JsonObject.optional(),
  })
  .strict()
  .refine((v) => v.displayName !== undefined || v.status !== undefined || v.settings !== undefined, {
    message: "at least one of displayName, status, settings is required",
  })
  .openapi("UpdateWikiSpace");
export const SpaceBootstrapSchema = z
  .object({ status: z.literal("ready"), space: WikiSpaceSchema, writtenFiles: z.array(z.string()), preservedFiles: z.array(z.string()) })
  .openapi("WikiSpaceBootstrap");

/** A query limit: an integer in 1..max (400 otherwise). */
const Limit = (max: number, fallback: number) =>
  z.coerce
    .number()
    .int()
    .min(1, `limit must be between 1 and ${max}`)
    .max(max, `limit must be between 1 and ${max}`)
    .optional()
    .openapi({ description: `Default ${fallback}, at most ${max}` });

// ---------------------------------------------------------------------------------------------
// Pages (board callers; agents read too)

const PagePath = z.string().min(1).max(MAX_PATH_LENGTH).openapi({
  description: "A .md page under wiki/ (or AGENTS.md, IDEA.md); `..`, `.`, backslashes and empty segments are 400",
  example: "wiki/concepts/deploys.md",
});

export const WikiPageSchema = z
  .object({
    path: z.string(),
    title: z.string(),
    pageType: z.enum(WIKI_PAGE_TYPES),
    hash: Hash,
    revisionId: z.string(),
    sizeBytes: z.number().int(),
    updatedAt: Timestamp,
  })
  .openapi("WikiPage");
export const PagesQuery = z.object({
  companyId: CompanyId,
  ...spaceFields,
  prefix: z.string().max(MAX_PATH_LENGTH).optional().openapi({ description: "Only paths starting with this", example: "wiki/concepts/" }),
  limit: Limit(MAX_LIST_LIMIT, MAX_LIST_LIMIT),
});
export const WikiPagesSchema = z.object({ pages: z.array(WikiPageSchema) }).openapi("WikiPages");

export const PageQuery = z.object({ companyId: CompanyId, ...spaceFields, path: PagePath });
export const WikiPageContentSchema = WikiPageSchema.extend({
  contents: z.string().openapi({ description: "The page, markdown" }),
  backlinks: z.array(z.string()).openapi({ description: "Paths of the pages linking to this one" }),
}).openapi("WikiPageContent");

export const RevisionsQuery = PageQuery.extend({ limit: Limit(MAX_REVISIONS_LIMIT, MAX_REVISIONS_LIMIT) });
export const WikiRevisionSchema = z
  .object({
    revisionId: z.string(),
    path: z.string().openapi({ description: "The page's path at this revision (a move changes it)" }),
    change: z.enum(WIKI_REVISION_CHANGES),
    hash: Hash.nullable(),
    previousHash: Hash.nullable(),
    summary: z.string().nullable(),
    operationId: z.string(),
    createdByAgentId: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    runId: z.string().nullable(),
    createdAt: Timestamp,
  })
  .openapi("WikiPageRevision");
export const WikiRevisionsSchema = z.object({ path: z.string(), revisions: z.array(WikiRevisionSchema) }).openapi("WikiPageRevisions");

export const WikiBacklinksSchema = z
  .object({ path: z.string(), backlinks: z.array(z.string()).openapi({ description: "Paths of the pages linking to it, sorted" }) })
  .openapi("WikiBacklinks");

export const WikiSearchQuery = z.object({
  companyId: CompanyId,
  ...spaceFields,
  q: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .openapi({ description: "Words to find (every word must match; stemmed); punctuation is plain text", example: "deploy rollback" }),
  limit: Limit(MAX_SEARCH_LIMIT, 10),
});
export const WikiSearchSchema = z
  .object({
    query: z.string(),
    results: z.array(
      z.object({
        kind: z.enum(["page", "source"]),
        path: z.string().openapi({ description: "A page's path, or a source's rawPath" }),
        title: z.string(),
        snippet: z.string().openapi({ description: "Where it matched, the matched words in **bold**" }),
        hash: Hash,
        rank: z.number().openapi({ description: "bm25 (lower is better; titles weigh over paths over bodies)" }),
      }),
    ),
  })
  .openapi("WikiSearch");

export const WritePageSchema = z
  .object({
    companyId: CompanyId,
    ...spaceFields,
    path: PagePath,
    contents: z
      .string()
      .max(512 * 1024)
      .openapi({ description: "The whole page, markdown" }),
    expectedHash: Hash.nullish().openapi({
      description: "The hash read with the page: if the page changed since (or is gone), 409 with details.currentHash. Absent: written without the check",
    }),
    summary: z.string().max(500).nullish(),
    title: z.string().trim().max(200).nullish().openapi({ description: "Default: the page's first heading, else its file name" }),
  })
  .strict()
  .openapi("WriteWikiPage");
export const WrittenPageSchema = z
  .object({
    path: z.string(),
    hash: Hash,
    previousHash: Hash.nullable(),
    revisionId: z.string(),
    created: z.boolean(),
    unchanged: z.boolean().openapi({ description: "true: the contents and title were the page's already; nothing was written" }),
    backlinks: z.array(z.string()),
    links: z.array(z.string()).openapi({ description: "Pages this one links to" }),
    page: z.object({ path: z.string(), title: z.string(), pageType: z.enum(WIKI_PAGE_TYPES), revisionId: z.string() }),
    operationId: z.string().nullable(),
  })
  .openapi("WrittenWikiPage");

export const WikiOperationSchema = z
  .object({
    id: z.string(),
    wikiId: z.string(),
    spaceSlug: z.string().nullable(),
    operationType: z.enum(WIKI_OPERATION_TYPES),
    status: z.enum(WIKI_OPERATION_STATUSES),
    summary: z.string().nullable(),
    details: JsonObject.nullable(),
    issueId: z.string().nullable(),
    runId: z.string().nullable(),
    actor: z.object({ type: z.enum(["user", "agent", "system"]), id: z.string() }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("WikiOperation");
export const OperationsQuery = z.object({
  companyId: CompanyId,
  ...spaceFields,
  operationType: z.enum(WIKI_OPERATION_TYPES).optional(),
  status: z.enum(WIKI_OPERATION_STATUSES).optional(),
  limit: Limit(MAX_OPERATIONS_LIMIT, 50),
});
export const WikiOperationsSchema = z.object({ operations: z.array(WikiOperationSchema) }).openapi("WikiOperations");

export const StartQuerySchema = z
  .object({ companyId: CompanyId, ...spaceFields, question: z.string().trim().min(1).max(10_000), title: z.string().trim().max(200).nullish() })
  .strict()
  .openapi("StartWikiQuery");
export const QuerySessionStartedSchema = z
  .object({
    status: z.literal("running"),
    operationId: z.string(),
    querySessionId: z.string(),
    issue: IssueSchema,
    runId: z.string().nullable().openapi({ description: "null: the maintainer's run is queued by the run engine; wiki.query.progress events carry its id" }),
  })
  .openapi("WikiQuerySessionStarted");

export const FileAsPageSchema = z
  .object({
    companyId: CompanyId,
    ...spaceFields,
    path: z.string().min(1).max(MAX_PATH_LENGTH).openapi({ example: "wiki/synthesis/release-cadence.md" }),
    title: z.string().trim().max(200).nullish(),
    contents: z
      .string()
      .max(512 * 1024)
      .nullish(),
    answer: z
      .string()
      .max(512 * 1024)
      .nullish()
      .openapi({ description: "Filed as the page when contents is absent (with querySessionId: instead of the session's answer)" }),
    querySessionId: Uuid.nullish().openapi({ description: "Files the session's answer (when contents is absent) and marks the session filed" }),
    expectedHash: Hash.nullish(),
  })
  .strict()
  .openapi("FileWikiPage");
export const FiledPageSchema = z
  .object({
    path: z.string(),
    hash: z.string(),
    previousHash: z.string().nullable(),
    page: z.object({ path: z.string(), title: z.string(), pageType: z.enum(WIKI_PAGE_TYPES), revisionId: z.string() }),
    operationId: z.string().nullable(),
  })
  .openapi("FiledWikiPage");

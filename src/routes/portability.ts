// Company portability: export a company as a package (src/domain/portability/format.ts), store
// exports in R2 for download, preview and apply imports into the route company.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createRouter } from "../http/router";
import type { AppEnv } from "../env";
import { dbOf } from "../http/db";
import { requireActor, requireBoard, requireCompanyAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { CompanyIdParam, errors, jsonBody, jsonContent, optionalJsonBody } from "../schemas/common";
import { ExportBodySchema, ImportBodySchema, ImportPlanSchema, ImportResultSchema, PackageSchema, type ImportBody } from "../schemas/portability";
import { exportCompany } from "../domain/portability/export";
import { MAX_PACKAGE_BYTES, resolveInclude, type Include, type PackageFiles } from "../domain/portability/format";
import { allowLargerBodies } from "../http/body-limit";
import { parsePackage } from "../domain/portability/parse";
import { previewImport, type PreviewTarget } from "../domain/portability/preview";
import { applyCompanyImport } from "../domain/portability/apply";
import { isCompanyCeoAgent } from "../domain/agents/queries";
import { forbidden, notFound, unprocessable } from "../domain/errors";
import { sha256Hex } from "../crypto/hash";
import { newId } from "../crypto/random";

const tags = ["Portability"];
export const portabilityRouter = createRouter();

// Packages are larger than ordinary JSON bodies (a 10,000-issue company is about 3.3 MiB): imports
// accept up to the package limit plus room for the JSON around it.
const IMPORT_BODY_LIMIT_BYTES = MAX_PACKAGE_BYTES + 1024 * 1024;
allowLargerBodies(/^\/api\/companies\/import\/preview\/?$/, IMPORT_BODY_LIMIT_BYTES);
allowLargerBodies(/^\/api\/companies\/[^/]+\/imports\/(preview|apply)\/?$/, IMPORT_BODY_LIMIT_BYTES);

/** Board callers with access to the company, or the company's CEO agent (403 otherwise). */
async function requireBoardOrCeo(c: Context<AppEnv>, companyId: string) {
  await requireCompanyAccess(c, companyId);
  const actor = requireActor(c);
  if (actor.type === "agent" && !(await isCompanyCeoAgent(dbOf(c), actor.agentId, companyId)))
    throw forbidden("Only board users and the company's CEO agent may do this");
}

/** The package files the import's `include` keeps (everything but comments and documents by default). */
function includedFiles(files: PackageFiles, include: Include): PackageFiles {
  const keep = (path: string) => {
    if (path === "manifest.json") return true;
    if (path === "company.md") return include.company;
    if (path === "labels.json") return include.labels;
    const [top] = path.split("/");
    if (top === "issues") {
      if (/\/comments\.json$/.test(path)) return include.issues && include.comments;
      if (/\/documents\//.test(path)) return include.issues && include.documents;
      return include.issues;
    }
    const byDir: Record<string, keyof Include> = { agents: "agents", goals: "goals", projects: "projects", routines: "routines", skills: "skills" };
    return byDir[top] ? include[byDir[top]] : false;
  };
  return Object.fromEntries(Object.entries(files).filter(([path]) => keep(path)));
}

/** The import's options checked against the route company (`replace` and other targets: 422). */
function importOptions(body: ImportBody, routeCompanyId: string | null) {
  if (body.collisionStrategy === "replace")
    throw unprocessable("The replace collision strategy is not supported: use skip (default) or rename", { collisionStrategy: "replace" });
  if (routeCompanyId && body.target && (body.target.mode !== "existing_company" || body.target.companyId !== routeCompanyId)) {
    throw unprocessable("A company-scoped import can only target the route company", { target: body.target });
  }
  const include = resolveInclude({ ...body.include, comments: body.include?.comments ?? true, documents: body.include?.documents ?? true });
  return { include, files: includedFiles(body.source.files, include), collisionStrategy: (body.collisionStrategy ?? "skip") as "skip" | "rename" };
}

const exportRequest = { params: CompanyIdParam, body: optionalJsonBody(ExportBodySchema) };
const ExportPreviewSchema = z
  .object({
    include: z.record(z.string(), z.boolean()),
    counts: z.record(z.string(), z.number()),
    paths: z.array(z.string()),
    secretPlaceholders: z.array(z.object({ name: z.string(), usedBy: z.array(z.string()) })),
    warnings: z.array(z.string()),
  })
  .openapi("ExportPreview");

portabilityRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/export",
    operationId: "exportCompany",
    tags,
    summary: "Export the company as a package (any caller with company access)",
    description:
      "Returns `{ rootPath, files, manifest, warnings }`: files maps relative paths to text (markdown with frontmatter per entity, JSON for labels and comments, the manifest). Secret references become named placeholders; no secret value, key, webhook secret or session is ever included.",
    request: exportRequest,
    responses: { 200: jsonContent(PackageSchema, "The package"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const body = (c.req.valid("json") as { include?: Record<string, boolean> } | undefined) ?? {};
    return c.json(await exportCompany(c.env, dbOf(c), companyId, resolveInclude(body.include)), 200);
  },
);

portabilityRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/exports/preview",
    operationId: "previewCompanyExport",
    tags,
    summary: "What an export would include: counts, file paths, secret placeholders, warnings (board or CEO)",
    request: exportRequest,
    responses: { 200: jsonContent(ExportPreviewSchema, "The preview"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireBoardOrCeo(c, companyId);
    const body = (c.req.valid("json") as { include?: Record<string, boolean> } | undefined) ?? {};
    const result = await exportCompany(c.env, dbOf(c), companyId, resolveInclude(body.include));
    return c.json(
      {
        include: result.manifest.include,
        counts: result.manifest.counts,
        paths: Object.keys(result.files).sort(),
        secretPlaceholders: result.manifest.secretPlaceholders,
        warnings: result.warnings,
      },
      200,
    );
  },
);

const StoredExportSchema = z
  .object({ exportId: z.string(), downloadUrl: z.string(), sizeBytes: z.number().int(), counts: z.record(z.string(), z.number()), createdAt: z.string() })
  .openapi("StoredExport");
const exportKey = (companyId: string, exportId: string) => `companies/${companyId}/exports/${exportId}.json`;

portabilityRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/exports",
    operationId: "storeCompanyExport",
    tags,
    summary: "Store an export in R2 and return its download reference (board or CEO)",
    description: "Download with `GET /api/companies/{companyId}/exports/{exportId}` (callers of this company only).",
    request: exportRequest,
    responses: { 201: jsonContent(StoredExportSchema, "The stored export"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireBoardOrCeo(c, companyId);
    const body = (c.req.valid("json") as { include?: Record<string, boolean> } | undefined) ?? {};
    const result = await exportCompany(c.env, dbOf(c), companyId, resolveInclude(body.include));
    const exportId = newId();
    const text = JSON.stringify(result);
    await c.env.FILES.put(exportKey(companyId, exportId), text, { httpMetadata: { contentType: "application/json" } });
    return c.json(
      {
        exportId,
        downloadUrl: `/api/companies/${companyId}/exports/${exportId}`,
        sizeBytes: new TextEncoder().encode(text).byteLength,
        counts: result.manifest.counts,
        createdAt: result.manifest.exportedAt,
      },
      201,
    );
  },
);

portabilityRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/exports/{exportId}",
    operationId: "downloadCompanyExport",
    tags,
    summary: "Download a stored export (callers of this company only)",
    request: {
      params: CompanyIdParam.extend({
        exportId: z
          .string()
          .uuid()
          .openapi({ param: { name: "exportId", in: "path" } }),
      }),
    },
    responses: { 200: jsonContent(PackageSchema, "The package"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId, exportId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const object = await c.env.FILES.get(exportKey(companyId, exportId));
    if (!object) throw notFound("Export not found");
    return new Response(object.body, { status: 200, headers: { "content-type": "application/json" } }) as never;
  },
);

// --- imports ---------------------------------------------------------------------------------

portabilityRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/import/preview",
    operationId: "previewCompanyImport",
    tags,
    summary: "Validate a package for a new or an existing company (board only)",
    description:
      "Reports, per entity, what the import would do (`create`, `skip` or `rename` with the new name), the counts, collisions and unbound secret placeholders. " +
      "For a new company (the default target) `company` is the company it would create: company.md's settings, named `newCompanyName` when given. Malformed packages are 422 with the path of the problem.",
    request: { body: jsonBody(ImportBodySchema) },
    responses: { 200: jsonContent(ImportPlanSchema, "The preview"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    requireBoard(c);
    const body = c.req.valid("json");
    const options = importOptions(body, null);
    const pkg = await parsePackage(options.files, options.include);
    const target: PreviewTarget = body.target?.mode === "existing_company" ? body.target : { mode: "new_company", name: body.target?.newCompanyName ?? null };
    if (target.mode === "existing_company") await requireCompanyAccess(c, target.companyId, { board: true });
    return c.json(await previewImport(dbOf(c), pkg, target, { collisionStrategy: options.collisionStrategy, secretBindings: body.secretBindings }), 200);
  },
);

portabilityRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/imports/preview",
    operationId: "previewCompanyScopedImport",
    tags,
    summary: "Preview importing a package into this company (board or CEO)",
    description:
      "Only the route company; `replace` is refused (422). Strategies `skip` (default: an entity whose name exists maps to it) and `rename`. " +
      "Reports, per entity, what the import would do (`create`, `skip` or `rename` with the new name), the counts and collisions; company.md does not change the company.",
    request: { params: CompanyIdParam, body: jsonBody(ImportBodySchema) },
    responses: { 200: jsonContent(ImportPlanSchema, "The preview"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireBoardOrCeo(c, companyId);
    const body = c.req.valid("json");
    const options = importOptions(body, companyId);
    const preview = await previewImport(
      dbOf(c),
      await parsePackage(options.files, options.include),
      { mode: "existing_company", companyId },
      { collisionStrategy: options.collisionStrategy, secretBindings: body.secretBindings },
    );
    return c.json(preview, 200);
  },
);

portabilityRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/imports/apply",
    operationId: "applyCompanyImport",
    tags,
    summary: "Import a package into this company, all or nothing (board or CEO)",
    description:
      "Every old id maps to a new one (org tree, goal tree, project links, issue parents and blockers stay intact); issue identifiers come from the company's counter; one activity entry with the counts. " +
      "The same package applied again returns the first result (`duplicate: true`). Unbound secret placeholders are a 422.",
    request: { params: CompanyIdParam, body: jsonBody(ImportBodySchema) },
    responses: { 200: jsonContent(ImportResultSchema, "The import"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireBoardOrCeo(c, companyId);
    const body = c.req.valid("json");
    const options = importOptions(body, companyId);
    await parsePackage(options.files, options.include); // malformed packages are refused before the company object is involved
    const canonical = JSON.stringify({
      files: Object.entries(options.files).sort(([a], [b]) => (a < b ? -1 : 1)),
      strategy: options.collisionStrategy,
      bindings: body.secretBindings ?? {},
    });
    const result = await runCompanyCommand(c.env, companyId, applyCompanyImport, requireActor(c), {
      files: options.files,
      include: options.include,
      packageHash: sha256Hex(canonical),
      collisionStrategy: options.collisionStrategy,
      secretBindings: body.secretBindings,
    });
    return c.json(result, 200);
  },
);

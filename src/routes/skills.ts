// Skills: the shipped catalog (authenticated, not company-scoped), the public catalog index, and
// each company's library (list, detail with usage, files, create, edit, delete, imports, catalog
// installs and updates, reset, audit). Mutations need agents:create (or legacy canCreateAgents).
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createRouter } from "../http/router";
import type { AppEnv } from "../env";
import { dbOf } from "../http/db";
import { requireActor, requireCompanyAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { CompanyIdParam, errors, jsonBody, jsonContent, OkSchema, optionalJsonBody } from "../schemas/common";
import {
  AuditResultSchema,
  CatalogEntrySchema,
  CatalogIdParam,
  CatalogQuery,
  CreateSkillSchema,
  FileQuery,
  ForceSchema,
  ImportResultSchema,
  ImportSkillsSchema,
  InstallCatalogSchema,
  InstallResultSchema,
  PatchSkillFileSchema,
  ScanProjectsSchema,
  SkillDetailSchema,
  SkillFileContentSchema,
  SkillNameParam,
  SkillPathParams,
  SkillSchema,
  UpdateStatusSchema,
} from "../schemas/skills";
import { catalog, filterCatalog, findCatalogSkill } from "../domain/skills/catalog";
import {
  applySourceUpdate,
  auditSkill,
  bundledOutOfDate,
  createManagedSkill,
  deleteSkill,
  installCatalogSkill,
  installSkillUpdate,
  patchSkillFile,
  recordSkillImport,
  resetSkill,
  syncBundledSkills,
} from "../domain/skills/commands";
import { skillView } from "../domain/skills/library";
import { loadLibrary, requireSkill, skillDetail } from "../domain/skills/queries";
import { latestSourceCommit, packagesFromUpload, refetchSource, resolveSkillSource, type ResolvedImport } from "../domain/skills/sources";
import { scanProjectSources } from "../domain/skills/scan";
import { textOf } from "../domain/skills/package";
import { canManageAgents } from "../domain/authorization/agent-management";
import { isPrivateTarget } from "../net/hosts";
import { forbidden, HttpError, notFound, unprocessable } from "../domain/errors";

const tags = ["Skills"];
export const skillsRouter = createRouter();

/** Company access, and for mutations the agents:create permission (403 otherwise). */
async function requireSkillAccess(c: Context<AppEnv>, companyId: string, mutate = false) {
  await requireCompanyAccess(c, companyId);
  if (mutate && !(await canManageAgents(dbOf(c), requireActor(c), companyId))) {
    throw forbidden("Changing the skill library needs agents:create (or permissions.canCreateAgents)");
  }
}

/** One file's content as the API shows it (binary content is not previewable). */
function fileContent(file: { path: string; kind: string; sizeBytes: number; sha256: string }, bytes: Uint8Array | null) {
  const text = bytes ? textOf(bytes) : null;
  return {
    path: file.path,
    kind: file.kind,
    sizeBytes: file.sizeBytes,
    sha256: file.sha256,
    previewable: text !== null,
    content: text,
    ...(text === null ? { message: "Binary file: not previewable" } : {}),
  };
}

// --- catalog -----------------------------------------------------------------------------------

skillsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/skills/catalog",
    operationId: "listCatalogSkills",
    tags,
    summary: "The shipped skill catalog (bundled and optional skills)",
    request: { query: CatalogQuery },
    responses: { 200: jsonContent(z.array(CatalogEntrySchema), "Catalog entries"), ...errors(400, 401) },
  }),
  async (c) => {
    requireActor(c);
    return c.json(await filterCatalog(c.req.valid("query")), 200);
  },
);

skillsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/skills/catalog/{catalogId}",
    operationId: "getCatalogSkill",
    tags,
    summary: "One catalog entry (by id, key or unique slug)",
    request: { params: CatalogIdParam },
    responses: { 200: jsonContent(CatalogEntrySchema, "The entry"), ...errors(401, 404, 422) },
  }),
  async (c) => {
    requireActor(c);
    return c.json((await findCatalogSkill(c.req.valid("param").catalogId)).entry, 200);
  },
);

skillsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/skills/catalog/{catalogId}/files",
    operationId: "getCatalogSkillFile",
    tags,
    summary: "One file of a catalog skill (`path`, default SKILL.md)",
    request: { params: CatalogIdParam, query: FileQuery },
    responses: { 200: jsonContent(SkillFileContentSchema, "The file"), ...errors(401, 404, 422) },
  }),
  async (c) => {
    requireActor(c);
    const skill = await findCatalogSkill(c.req.valid("param").catalogId);
    const path = c.req.valid("query").path ?? "SKILL.md";
    const file = skill.pkg.files.find((f) => f.path === path);
    if (!file) throw notFound(`No file ${path} in ${skill.entry.key}`);
    return c.json(fileContent(file, file.bytes), 200);
  },
);

const IndexSchema = z
  .object({ skills: z.array(z.object({ name: z.string(), key: z.string(), kind: z.string(), description: z.string().nullable(), url: z.string() })) })
  .openapi("PublicSkillIndex");
const publicIndex = async (c: Context<AppEnv>) => {
  const base = new URL(c.req.url).origin;
  return {
    skills: (await catalog()).map(({ entry }) => ({
      name: entry.slug,
      key: entry.key,
      kind: entry.kind,
      description: entry.description,
      url: `${base}/api/skills/${entry.slug}`,
    })),
  };
};

skillsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/skills/available",
    operationId: "listAvailableSkills",
    security: [],
    tags,
    summary: "Public: the catalog's skills",
    responses: { 200: jsonContent(IndexSchema, "Skills") },
  }),
  async (c) => c.json(await publicIndex(c), 200),
);

skillsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/skills/index",
    operationId: "getSkillIndex",
    security: [],
    tags,
    summary: "Public: the catalog's index",
    responses: { 200: jsonContent(IndexSchema, "Index") },
  }),
  async (c) => c.json(await publicIndex(c), 200),
);

skillsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/skills/{skillName}",
    operationId: "getPublicSkill",
    security: [],
    tags,
    summary: "Public: one catalog skill's SKILL.md (by slug, key or id)",
    request: { params: SkillNameParam },
    responses: { 200: { description: "Markdown", content: { "text/markdown": { schema: z.string() } } }, ...errors(404, 422) },
  }),
  async (c) => {
    const name = c.req.valid("param").skillName.replace(/\.md$/, "");
    const skill = await findCatalogSkill(name);
    return c.text(skill.pkg.files.find((f) => f.path === "SKILL.md")!.text!, 200, { "content-type": "text/markdown; charset=utf-8" });
  },
);

// --- the company library -----------------------------------------------------------------------

skillsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/skills",
    operationId: "listCompanySkills",
    tags,
    summary: "The company's skill library (bundled skills are brought up to date on each list)",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(SkillSchema), "Skills"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireSkillAccess(c, companyId);
    let library = await loadLibrary(dbOf(c), companyId);
    if (await bundledOutOfDate(library.map((s) => s.row))) {
      await runCompanyCommand(c.env, companyId, syncBundledSkills, requireActor(c), {});
      library = await loadLibrary(dbOf(c), companyId);
    }
    return c.json(
      library.map((s) => skillView(s.row, s.files)).sort((a, b) => (a.key < b.key ? -1 : 1)),
      200,
    );
  },
);

skillsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/skills",
    operationId: "createCompanySkill",
    tags,
    summary: "Create an empty managed skill (`{ name, description?, slug? }`; key `company/<slug>`)",
    request: { params: CompanyIdParam, body: jsonBody(CreateSkillSchema) },
    responses: { 201: jsonContent(SkillSchema, "The skill"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireSkillAccess(c, companyId, true);
    return c.json(await runCompanyCommand(c.env, companyId, createManagedSkill, requireActor(c), c.req.valid("json")), 201);
  },
);

skillsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/skills/{skillId}",
    operationId: "getCompanySkill",
    tags,
    summary: "One skill with its usage (the agents that desire it)",
    request: { params: SkillPathParams },
    responses: { 200: jsonContent(SkillDetailSchema, "The skill"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId, skillId } = c.req.valid("param");
    await requireSkillAccess(c, companyId);
    return c.json(await skillDetail(dbOf(c), companyId, skillId), 200);
  },
);

skillsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/skills/{skillId}/files",
    operationId: "getCompanySkillFile",
    tags,
    summary: "Read one file of a skill (`path`, default SKILL.md)",
    request: { params: SkillPathParams, query: FileQuery },
    responses: { 200: jsonContent(SkillFileContentSchema, "The file"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId, skillId } = c.req.valid("param");
    await requireSkillAccess(c, companyId);
    const skill = await requireSkill(dbOf(c), companyId, skillId);
    const path = c.req.valid("query").path ?? "SKILL.md";
    const file = skill.files.find((f) => f.path === path);
    if (!file) throw notFound(`No file ${path} in ${skill.row.key}`);
    const object = await c.env.FILES.get(file.objectKey);
    return c.json(fileContent(file, object ? new Uint8Array(await object.arrayBuffer()) : null), 200);
  },
);

skillsRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/companies/{companyId}/skills/{skillId}/files",
    operationId: "updateCompanySkillFile",
    tags,
    summary: "Write one file of an editable skill (`{ path, content }`); bundled skills: 409",
    request: { params: SkillPathParams, body: jsonBody(PatchSkillFileSchema) },
    responses: { 200: jsonContent(SkillSchema, "The skill"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const { companyId, skillId } = c.req.valid("param");
    await requireSkillAccess(c, companyId, true);
    return c.json(await runCompanyCommand(c.env, companyId, patchSkillFile, requireActor(c), { skillId, ...c.req.valid("json") }), 200);
  },
);

skillsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/skills/{skillId}/update-status",
    operationId: "getCompanySkillUpdateStatus",
    tags,
    summary: "Whether the skill's origin has a newer version and whether it was changed locally",
    request: { params: SkillPathParams },
    responses: { 200: jsonContent(UpdateStatusSchema, "Update status"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId, skillId } = c.req.valid("param");
    await requireSkillAccess(c, companyId);
    const { row } = await requireSkill(dbOf(c), companyId, skillId);
    let latestHash: string | null = null;
    let latestCommit: string | null = null;
    const warnings: string[] = [];
    if (row.sourceType === "catalog" || row.sourceType === "bundled") {
      try {
        latestHash = (await findCatalogSkill(row.sourceRef ?? row.key)).entry.contentHash;
      } catch {
        warnings.push("The catalog no longer ships this skill");
      }
    } else {
      try {
        latestCommit = await latestSourceCommit(c.env, row.sourceType, row.sourceRef, urlPolicy(c));
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        warnings.push(`Could not check the source: ${err.message}`);
      }
    }
    return c.json(
      {
        skillId: row.id,
        sourceType: row.sourceType,
        installedHash: row.contentHash,
        originHash: row.originHash,
        latestHash,
        sourceCommit: row.sourceCommit,
        latestCommit,
        warnings,
        updateAvailable: (latestHash !== null && latestHash !== row.originHash) || (latestCommit !== null && latestCommit !== row.sourceCommit),
        locallyModified: row.originHash !== null && row.originHash !== row.contentHash,
        audit: row.auditVerdict ? { verdict: row.auditVerdict, codes: row.auditCodes ?? [] } : null,
      },
      200,
    );
  },
);

skillsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/skills/{skillId}/install-update",
    operationId: "installCompanySkillUpdate",
    tags,
    summary: "Install the origin's newer version (catalog, or fetched again from the skill's git host or URL)",
    description:
      "`{ force }` overrides the soft hold on local modifications, never a failed audit (422). Skills made here (managed, uploaded) have no origin to update from (422).",
    request: { params: SkillPathParams, body: optionalJsonBody(ForceSchema) },
    responses: { 200: jsonContent(InstallResultSchema.partial({ catalogSkill: true }), "The result"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const { companyId, skillId } = c.req.valid("param");
    await requireSkillAccess(c, companyId, true);
    const force = (c.req.valid("json") as { force?: boolean } | undefined)?.force;
    const { row } = await requireSkill(dbOf(c), companyId, skillId);
    const actor = requireActor(c);
    if (row.sourceType === "catalog" || row.sourceType === "bundled")
      return c.json(await runCompanyCommand(c.env, companyId, installSkillUpdate, actor, { skillId, force }), 200);
    const source = refetchSource(row.sourceType, row.sourceRef);
    if (!source) throw unprocessable(`A ${row.sourceType} skill has no origin to update from`, { sourceType: row.sourceType });
    const resolved = await resolveSkillSource(c.env, source, urlPolicy(c));
    const match = resolved.packages.find((p) => p.sourceRef === row.sourceRef) ?? (resolved.packages.length === 1 ? resolved.packages[0] : undefined);
    if (!match) throw unprocessable("The skill is no longer at its source", { sourceRef: row.sourceRef });
    return c.json(
      await runCompanyCommand(c.env, companyId, applySourceUpdate, actor, {
        skillId,
        expectedSourceCommit: row.sourceCommit,
        files: match.files,
        sourceCommit: match.sourceCommit,
        force,
      }),
      200,
    );
  },
);

skillsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/skills/{skillId}/reset",
    operationId: "resetCompanySkill",
    tags,
    summary: "Restore a catalog-managed skill to its catalog version (`{ force }` discards local changes)",
    description: "Catalog-managed skills only: a bundled skill (kept current on every list, never edited) or a skill from another source is 422.",
    request: { params: SkillPathParams, body: optionalJsonBody(ForceSchema) },
    responses: { 200: jsonContent(InstallResultSchema, "The result"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const { companyId, skillId } = c.req.valid("param");
    await requireSkillAccess(c, companyId, true);
    const body = (c.req.valid("json") as { force?: boolean } | undefined) ?? {};
    return c.json(await runCompanyCommand(c.env, companyId, resetSkill, requireActor(c), { skillId, force: body.force }), 200);
  },
);

skillsRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/companies/{companyId}/skills/{skillId}",
    operationId: "deleteCompanySkill",
    tags,
    summary: "Delete a skill (bundled skills and skills agents desire: 409 with the reason)",
    request: { params: SkillPathParams },
    responses: { 200: jsonContent(OkSchema, "Deleted"), ...errors(401, 403, 404, 409) },
  }),
  async (c) => {
    const { companyId, skillId } = c.req.valid("param");
    await requireSkillAccess(c, companyId, true);
    return c.json(await runCompanyCommand(c.env, companyId, deleteSkill, requireActor(c), { skillId }), 200);
  },
);

skillsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/skills/{skillId}/audit",
    operationId: "auditCompanySkill",
    tags,
    summary: "Audit a skill's files: verdict pass / warning / fail with codes",
    request: { params: SkillPathParams },
    responses: { 200: jsonContent(AuditResultSchema, "The audit"), ...errors(401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId, skillId } = c.req.valid("param");
    await requireSkillAccess(c, companyId, true);
    return c.json(await runCompanyCommand(c.env, companyId, auditSkill, requireActor(c), { skillId }), 200);
  },
);

skillsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/skills/install-catalog",
    operationId: "installCatalogSkill",
    tags,
    summary: "Install a catalog skill into the library (201 created; 200 updated or unchanged); attaches to no agent",
    request: { params: CompanyIdParam, body: jsonBody(InstallCatalogSchema) },
    responses: {
      200: jsonContent(InstallResultSchema, "Updated or unchanged"),
      201: jsonContent(InstallResultSchema, "Installed"),
      ...errors(400, 401, 403, 404, 409, 422),
    },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireSkillAccess(c, companyId, true);
    const result = await runCompanyCommand(c.env, companyId, installCatalogSkill, requireActor(c), c.req.valid("json"));
    return result.action === "created" ? c.json(result, 201) : c.json(result, 200);
  },
);

/** A user-given URL must not reach the service's own network when it is publicly exposed. */
const urlPolicy = (c: Context<AppEnv>) => (url: string) => {
  if (c.get("config").exposure === "public" && isPrivateTarget(new URL(url).hostname))
    throw unprocessable("Skill sources on loopback or private networks are refused on a public deployment", { url });
};

skillsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/skills/import",
    operationId: "importCompanySkills",
    tags,
    summary: "Import skills from a source (GitHub, skills.sh, install command, SKILL.md URL) or an uploaded folder",
    description:
      "`{ source }` is fetched by the service (time, size and file-count limits; the commit or content hash is recorded); a local path is refused (422) — upload the folder with the CLI, which sends `{ files: [{ path, content, encoding? }], rootPath }`. " +
      "A folder of many skills imports each. Failures (unreachable, 404, oversize, no SKILL.md, malformed frontmatter, failed audit) are 422 with the reason, and nothing is stored.",
    request: { params: CompanyIdParam, body: jsonBody(ImportSkillsSchema) },
    responses: { 200: jsonContent(ImportResultSchema, "What was imported"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireSkillAccess(c, companyId, true);
    const body = c.req.valid("json");
    const resolved: ResolvedImport = body.files ? packagesFromUpload(body.files, body.rootPath) : await resolveSkillSource(c.env, body.source!, urlPolicy(c));
    const result = await runCompanyCommand(c.env, companyId, recordSkillImport, requireActor(c), {
      packages: resolved.packages,
      source: resolved.source.ref ?? resolved.source.type,
      force: body.force,
    });
    return c.json({ ...result, source: resolved.source }, 200);
  },
);

skillsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/skills/scan-projects",
    operationId: "scanProjectSkills",
    tags,
    summary: "Import skill folders from the repositories the projects' workspaces name (never destructive)",
    request: { params: CompanyIdParam, body: optionalJsonBody(ScanProjectsSchema) },
    responses: {
      200: jsonContent(ImportResultSchema.omit({ source: true }).extend({ updated: z.array(z.string()) }), "Scan result"),
      ...errors(400, 401, 403, 404, 422),
    },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireSkillAccess(c, companyId, true);
    const body = (c.req.valid("json") as { projectIds?: string[]; workspaceIds?: string[] } | undefined) ?? {};
    const { packages, warnings } = await scanProjectSources(c.env, dbOf(c), companyId, body, urlPolicy(c));
    const result = packages.length
      ? await runCompanyCommand(c.env, companyId, recordSkillImport, requireActor(c), { packages, source: "project_scan" })
      : { imported: [], skipped: [], conflicts: [], warnings: [] };
    return c.json(
      { ...result, updated: result.imported.filter((s) => s.action === "updated").map((s) => s.key), warnings: [...warnings, ...result.warnings] },
      200,
    );
  },
);

// Company portability: export and import bodies (the incumbent's shapes).
import { z } from "@hono/zod-openapi";
import { Uuid } from "./common";
import { ENTITY_ACTIONS, ENTITY_KINDS, INCLUDE_KEYS } from "../domain/portability/format";

export const IncludeSchema = z
  .object(Object.fromEntries(INCLUDE_KEYS.map((k) => [k, z.boolean().optional()])) as Record<(typeof INCLUDE_KEYS)[number], z.ZodOptional<z.ZodBoolean>>)
  .strict()
  .openapi("PortabilityInclude", { description: "What to include; everything but comments and documents by default" });

export const ExportBodySchema = z.object({ include: IncludeSchema.optional() }).strict().openapi("ExportCompany");

export const PackageSchema = z
  .object({
    rootPath: z.string(),
    files: z.record(z.string(), z.string()).openapi({ description: "Relative path → text content" }),
    manifest: z.record(z.string(), z.unknown()),
    warnings: z.array(z.string()),
  })
  .openapi("CompanyPackage");

export const ImportBodySchema = z
  .object({
    source: z.object({ type: z.literal("inline"), rootPath: z.string().max(500).optional(), files: z.record(z.string(), z.string()) }).strict(),
    target: z
      .discriminatedUnion("mode", [
        z.object({ mode: z.literal("new_company"), newCompanyName: z.string().trim().min(1).max(200) }).strict(),
        z.object({ mode: z.literal("existing_company"), companyId: Uuid }).strict(),
      ])
      .optional()
      .openapi({ description: "Company-scoped routes: the route company (the default); `/api/companies/import/preview` also checks a new company" }),
    include: IncludeSchema.optional(),
    collisionStrategy: z.enum(["skip", "rename", "replace"]).optional().openapi({ description: "`skip` (default) or `rename`; `replace` is refused (422)" }),
    secretBindings: z
      .record(z.string(), z.string())
      .optional()
      .openapi({ description: "Placeholder name → a secret of the target company (id or name); same-named secrets bind by themselves" }),
  })
  .strict()
  .openapi("ImportCompany");
export type ImportBody = z.infer<typeof ImportBodySchema>;

export const PlannedEntitySchema = z
  .object({
    key: z.string().openapi({ description: "Its key in the package: an agent's or project's URL key, an issue's identifier, a skill's key, otherwise its id" }),
    path: z.string().openapi({ description: "The package file it comes from" }),
    name: z.string().openapi({ description: "Its name or title in the package" }),
    action: z.enum(ENTITY_ACTIONS).openapi({ description: "`create`; `skip` (maps to existingId); `rename` (created as newName)" }),
    newName: z.string().optional(),
    existingId: z.string().optional().openapi({ description: "The target's entity of the same name (skip, or rename on a clash)" }),
  })
  .openapi("ImportPlannedEntity");

const ImportedCompanySchema = z
  .object({
    name: z.string().nullable(),
    description: z.string().nullable(),
    brandColor: z.string().nullable(),
    budgetMonthlyCents: z.number().int(),
    requireBoardApprovalForNewAgents: z.boolean(),
    issuePrefix: z.string().nullable().openapi({ description: "The prefix it would get now" }),
  })
  .openapi("ImportPreviewCompany", { description: "The company a new-company import would create (company.md's settings; newCompanyName first)" });

export const ImportPlanSchema = z
  .object({
    target: z.object({ mode: z.string(), companyId: z.string().nullable(), name: z.string().nullable() }),
    company: ImportedCompanySchema.nullable().openapi({ description: "New company only; null for an existing company (company.md does not change it)" }),
    entities: z
      .object(
        Object.fromEntries(ENTITY_KINDS.map((k) => [k, z.array(PlannedEntitySchema)])) as Record<
          (typeof ENTITY_KINDS)[number],
          z.ZodArray<typeof PlannedEntitySchema>
        >,
      )
      .openapi({ description: "Every entity of the package, per kind, with what the import would do" }),
    create: z.record(z.string(), z.number()),
    skip: z.record(z.string(), z.number()),
    collisions: z.array(
      z.object({ kind: z.string(), name: z.string(), existingId: z.string().nullable(), resolution: z.string(), newName: z.string().optional() }),
    ),
    unboundSecrets: z.array(z.string()),
    secretBindings: z.record(z.string(), z.string()),
    warnings: z.array(z.string()),
  })
  .openapi("ImportPreview");

export const ImportResultSchema = ImportPlanSchema.omit({ target: true, company: true, entities: true })
  .extend({ importId: z.string(), duplicate: z.boolean(), idMap: z.record(z.string(), z.record(z.string(), z.string())) })
  .openapi("ImportResult");

// Company request and response schemas.
import { z } from "@hono/zod-openapi";
import { Timestamp, atLeastOneField, Uuid } from "./common";
import { COMPANY_STATUSES } from "../db/schema/companies";

const HexColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "must be a hex colour such as #1a2b3c");
const Cents = z.number().int().min(0).max(1_000_000_000_00);

export const CompanySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(COMPANY_STATUSES),
    pauseReason: z.string().nullable(),
    issuePrefix: z.string(),
    issueCounter: z.number().int(),
    budgetMonthlyCents: z.number().int(),
    spentMonthlyCents: z.number().int(),
    requireBoardApprovalForNewAgents: z.boolean(),
    brandColor: z.string().nullable(),
    logoAssetId: z.string().nullable(),
    logoUrl: z.string().nullable().openapi({ description: "Derived from logoAssetId: /api/assets/{assetId}/content" }),
    archivedAt: z.string().nullable(),
    feedbackSharingConsent: z.record(z.string(), z.unknown()).optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Company");

export const CreateCompanySchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(10_000).nullable().optional(),
    budgetMonthlyCents: Cents.optional(),
    requireBoardApprovalForNewAgents: z.boolean().optional(),
    brandColor: HexColor.nullable().optional(),
  })
  .openapi("CreateCompany");

export const UpdateCompanySchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(10_000).nullable().optional(),
    budgetMonthlyCents: Cents.optional(),
    status: z.enum(COMPANY_STATUSES).optional(),
    brandColor: HexColor.nullable().optional(),
    logoAssetId: Uuid.nullable().optional(),
    requireBoardApprovalForNewAgents: z.boolean().optional(),
    feedbackSharingConsent: z
      .object({ enabled: z.boolean(), note: z.string().max(1000).optional() })
      .strict()
      .nullable()
      .optional()
      .openapi({ description: "Whether feedback traces may be marked shared (outside the company); null withdraws consent" }),
  })
  .refine(...atLeastOneField)
  .openapi("UpdateCompany");

export const BrandingSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(10_000).nullable().optional(),
    brandColor: HexColor.nullable().optional(),
    logoAssetId: Uuid.nullable().optional(),
  })
  .refine(...atLeastOneField)
  .openapi("UpdateCompanyBranding");

export const CompanyStatsSchema = z.record(z.string(), z.object({ agentCount: z.number().int(), issueCount: z.number().int() })).openapi("CompanyStats");

export const CompanyListQuery = z.object({
  includeArchived: z.enum(["true", "false"]).optional().openapi({ description: "Include archived companies (default false)" }),
});

export const DeletedCompanySchema = z.object({ deleted: z.literal(true), id: z.string() }).openapi("DeletedCompany");

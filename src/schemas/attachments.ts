// Attachments, logo assets and work products: request and response schemas.
import { z } from "@hono/zod-openapi";
import { Timestamp } from "./common";

export const AttachmentSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    issueId: z.string(),
    contentType: z.string(),
    byteSize: z.number().int(),
    sha256: z.string().openapi({ description: "Hex SHA-256 of the bytes (also the content ETag)" }),
    originalFilename: z.string().nullable(),
    createdByAgentId: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    createdAt: Timestamp,
    contentPath: z.string().openapi({ example: "/api/attachments/3f2c…/content" }),
    downloadPath: z.string().openapi({ example: "/api/attachments/3f2c…/content?download=1" }),
  })
  .openapi("Attachment");

export const AssetSchema = z
  .object({
    id: z.string(),
    assetId: z.string(),
    companyId: z.string(),
    kind: z.string(),
    contentType: z.string(),
    byteSize: z.number().int(),
    sha256: z.string(),
    originalFilename: z.string().nullable(),
    createdByAgentId: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    createdAt: Timestamp,
    contentPath: z.string().openapi({ example: "/api/assets/3f2c…/content" }),
  })
  .openapi("Asset");

/** A multipart body with one `file` part (documented only; parsed by the handler after the access checks). */
export const multipartFileBody = (description: string) => ({
  required: true,
  description,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object" as const,
        properties: { file: { type: "string" as const, format: "binary", description } },
        required: ["file"],
      },
    },
  },
});

export const AttachmentIdParam = z.object({
  attachmentId: z
    .string()
    .min(1)
    .openapi({ param: { name: "attachmentId", in: "path" } }),
});
export const AssetIdParam = z.object({
  assetId: z
    .string()
    .min(1)
    .openapi({ param: { name: "assetId", in: "path" } }),
});
export const CompanyIssueParams = z.object({
  companyId: z
    .string()
    .min(1)
    .openapi({ param: { name: "companyId", in: "path" } }),
  issueId: z
    .string()
    .min(1)
    .openapi({ param: { name: "issueId", in: "path" }, description: "Issue UUID or identifier" }),
});

export const ContentQuery = z.object({
  download: z.enum(["0", "1", "true", "false"]).optional().openapi({ description: "1 forces Content-Disposition: attachment (default inline)" }),
});

export const DeletedAttachmentSchema = z.object({ deleted: z.literal(true), id: z.string() }).openapi("DeletedAttachment");

export const binaryContent = (description: string) => ({
  description,
  content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } },
});

export const WorkProductSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    issueId: z.string(),
    kind: z.string(),
    title: z.string(),
    url: z.string().nullable(),
    contentType: z.string().nullable(),
    previewText: z.string().nullable(),
    createdByAgentId: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("WorkProduct");

export const CreateWorkProductSchema = z
  .object({
    kind: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[a-z0-9_.-]+$/, "kind uses lowercase letters, digits, '_', '.' and '-'")
      .openapi({ example: "pull_request", description: "Free-form kind such as pull_request, preview_url, report, image" }),
    title: z.string().trim().min(1).max(300),
    url: z
      .string()
      .url()
      .max(2048)
      .refine((u) => /^https?:\/\//i.test(u), "url must be http(s)")
      .nullable()
      .optional(),
    contentType: z
      .string()
      .max(255)
      .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i, "contentType must be a media type such as image/png")
      .nullable()
      .optional()
      .openapi({ description: "Decides the artifact mediaKind (image/*, video/*, text/*, documents)" }),
    previewText: z.string().max(2000).nullable().optional(),
  })
  .openapi("CreateWorkProduct");

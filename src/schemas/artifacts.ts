// The company artifact projection: query and response schemas.
import { z } from "@hono/zod-openapi";
import { Timestamp } from "./common";

export const ArtifactsQuery = z.object({
  kind: z.enum(["image", "video", "text", "document", "file", "all"]).default("all").openapi({ description: "mediaKind filter (default all)" }),
  projectId: z.string().uuid().optional().openapi({ description: "Only artifacts of issues in this project" }),
  q: z
    .string()
    .max(160, "q is at most 160 characters")
    .optional()
    .openapi({ description: "Case-insensitive substring of the artifact title, preview text, issue identifier or issue title" }),
  groupBy: z.enum(["none", "task", "parent_task"]).default("none").openapi({
    description: "task: one group per issue; parent_task: one group per parent issue (top-level issues group themselves)",
  }),
  groupIssueId: z
    .string()
    .uuid()
    .optional()
    .openapi({ description: "Expand one group (the group's issue id): returns its artifacts plus selectedGroup; groupBy defaults to task" }),
  limit: z.coerce.number().int().min(1).max(100).default(30).openapi({ description: "1 to 100, default 30 (artifacts or groups per page)" }),
  cursor: z.string().max(1000).optional().openapi({ description: "Opaque: the nextCursor of the previous page" }),
});

const Ref = z.object({ id: z.string(), name: z.string() });

export const ArtifactSchema = z
  .object({
    id: z.string().openapi({ example: "attachment:3f2c…", description: "Prefixed document:, attachment: or work_product:" }),
    source: z.enum(["document", "attachment", "work_product"]),
    mediaKind: z.enum(["image", "video", "text", "document", "file", ""]),
    title: z.string(),
    previewText: z.string().nullable(),
    contentType: z.string().nullable(),
    contentPath: z.string().nullable().openapi({ description: "API path of the raw content" }),
    openPath: z.string().nullable().openapi({ description: "Where to open it: API content path, or a work product's URL" }),
    downloadPath: z.string().nullable(),
    issue: z.object({ id: z.string(), identifier: z.string(), title: z.string() }),
    project: Ref.nullable(),
    createdByAgent: Ref.nullable(),
    updatedAt: Timestamp,
    href: z.string().openapi({ example: "/issues/ACM-12#document-plan", description: "App link to the artifact in its issue" }),
  })
  .openapi("Artifact");

export const ArtifactGroupSchema = z
  .object({
    id: z.string().openapi({ example: "task:3f2c…" }),
    groupBy: z.enum(["task", "parent_task"]),
    issue: z.object({ id: z.string(), identifier: z.string(), title: z.string() }),
    title: z.string(),
    count: z.number().int(),
    mediaKinds: z.array(z.string()),
    previewArtifacts: z.array(ArtifactSchema).openapi({ description: "The group's three newest artifacts" }),
    updatedAt: Timestamp,
    href: z.string(),
  })
  .openapi("ArtifactGroup");

export const ArtifactsEnvelopeSchema = z
  .object({
    artifacts: z.array(ArtifactSchema).optional(),
    groups: z.array(ArtifactGroupSchema).optional(),
    selectedGroup: ArtifactGroupSchema.nullable().optional(),
    nextCursor: z.string().nullable(),
  })
  .openapi("ArtifactsEnvelope");

// Attachment, logo-asset and work-product mutations, run in the company's Durable Object.
// Bytes are written to R2 by the Worker before the command records them; a refused command
// leaves the caller to delete the object, and deletes remove the object after the row.
import type { Statement } from "../../db/batch";
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand, type CommandContext } from "../../company/command";
import { forbidden, notFound } from "../errors";
import { newId } from "../../crypto/random";
import { actorColumns, loadIssueInCompany } from "../documents/commands";
import { assetView, attachmentView, workProductView } from "./view";

const batch = (ctx: CommandContext, statements: Statement[]) => ctx.batch(statements);

export interface StoredBytesInput {
  id: string;
  objectKey: string;
  contentType: string;
  byteSize: number;
  sha256: string;
  originalFilename: string | null;
}

export const createAttachment = defineCommand("attachment.create", async (ctx, actor, input: StoredBytesInput & { issueId: string }) => {
  await loadIssueInCompany(ctx, input.issueId);
  const who = actorColumns(actor);
  const row: typeof schema.issueAttachments.$inferSelect = {
    id: input.id,
    companyId: ctx.companyId,
    issueId: input.issueId,
    contentType: input.contentType,
    byteSize: input.byteSize,
    sha256: input.sha256,
    objectKey: input.objectKey,
    originalFilename: input.originalFilename,
    createdByAgentId: who.agentId,
    createdByUserId: who.userId,
    createdAt: ctx.now,
  };
  await batch(ctx, [
    ctx.db.insert(schema.issueAttachments).values(row),
    ctx.activity({
      action: "issue.attachment_added",
      entityType: "issue",
      entityId: input.issueId,
      details: { attachmentId: row.id, originalFilename: row.originalFilename, contentType: row.contentType, byteSize: row.byteSize },
    }),
  ]);
  return attachmentView(row);
});

/** Board callers, or the agent that uploaded it. */
export const deleteAttachment = defineCommand("attachment.delete", async (ctx, actor, input: { attachmentId: string }) => {
  const row = await ctx.db.query.issueAttachments.findFirst({
    where: and(eq(schema.issueAttachments.id, input.attachmentId), eq(schema.issueAttachments.companyId, ctx.companyId)),
  });
  if (!row) throw notFound("Attachment not found");
  if (actor.type === "agent" && row.createdByAgentId !== actor.agentId) {
    throw forbidden("Agents may delete only attachments they uploaded");
  }
  await batch(ctx, [
    ctx.db.delete(schema.issueAttachments).where(eq(schema.issueAttachments.id, row.id)),
    ctx.activity({
      action: "issue.attachment_deleted",
      entityType: "issue",
      entityId: row.issueId,
      details: { attachmentId: row.id, originalFilename: row.originalFilename },
    }),
  ]);
  await ctx.env.FILES.delete(row.objectKey);
  return { deleted: true as const, id: row.id };
});

/** A logo upload: an asset of the company, not attached to it until PATCH sets logoAssetId. */
export const createLogoAsset = defineCommand("asset.createLogo", async (ctx, actor, input: StoredBytesInput) => {
  const who = actorColumns(actor);
  const row: typeof schema.assets.$inferSelect = {
    id: input.id,
    companyId: ctx.companyId,
    kind: "logo",
    contentType: input.contentType,
    byteSize: input.byteSize,
    sha256: input.sha256,
    objectKey: input.objectKey,
    originalFilename: input.originalFilename,
    createdByAgentId: who.agentId,
    createdByUserId: who.userId,
    createdAt: ctx.now,
  };
  await batch(ctx, [
    ctx.db.insert(schema.assets).values(row),
    ctx.activity({
      action: "company.logo_uploaded",
      entityType: "asset",
      entityId: row.id,
      details: { contentType: row.contentType, byteSize: row.byteSize },
    }),
  ]);
  return assetView(row);
});

export interface WorkProductInput {
  issueId: string;
  kind: string;
  title: string;
  url?: string | null;
  contentType?: string | null;
  previewText?: string | null;
}

export const createWorkProduct = defineCommand("workProduct.create", async (ctx, actor, input: WorkProductInput) => {
  await loadIssueInCompany(ctx, input.issueId);
  const row: typeof schema.workProducts.$inferSelect = {
    id: newId(),
    companyId: ctx.companyId,
    issueId: input.issueId,
    kind: input.kind,
    title: input.title,
    url: input.url ?? null,
    contentType: input.contentType ?? null,
    previewText: input.previewText ?? null,
    createdByAgentId: actor.type === "agent" ? actor.agentId : null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  await batch(ctx, [
    ctx.db.insert(schema.workProducts).values(row),
    ctx.activity({
      action: "issue.work_product_created",
      entityType: "issue",
      entityId: input.issueId,
      details: { workProductId: row.id, kind: row.kind, title: row.title },
    }),
  ]);
  return workProductView(row);
});

export const attachmentCommands = [createAttachment, deleteAttachment, createLogoAsset, createWorkProduct];

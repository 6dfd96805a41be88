// API views of issue attachments, logo assets and work products.
import type { schema } from "../../db/client";
import { assetContentPath } from "../companies/view";

type AttachmentRow = typeof schema.issueAttachments.$inferSelect;
type AssetRow = typeof schema.assets.$inferSelect;
type WorkProductRow = typeof schema.workProducts.$inferSelect;

export const attachmentContentPath = (id: string) => `/api/attachments/${id}/content`;
export const attachmentObjectKey = (companyId: string, id: string) => `companies/${companyId}/attachments/${id}`;
export const assetObjectKey = (companyId: string, id: string) => `companies/${companyId}/assets/${id}`;

export function attachmentView(row: AttachmentRow) {
  return {
    id: row.id,
    companyId: row.companyId,
    issueId: row.issueId,
    contentType: row.contentType,
    byteSize: row.byteSize,
    sha256: row.sha256,
    originalFilename: row.originalFilename ?? null,
    createdByAgentId: row.createdByAgentId ?? null,
    createdByUserId: row.createdByUserId ?? null,
    createdAt: row.createdAt,
    contentPath: attachmentContentPath(row.id),
    downloadPath: `${attachmentContentPath(row.id)}?download=1`,
  };
}

export function assetView(row: AssetRow) {
  return {
    id: row.id,
    assetId: row.id,
    companyId: row.companyId,
    kind: row.kind,
    contentType: row.contentType,
    byteSize: row.byteSize,
    sha256: row.sha256,
    originalFilename: row.originalFilename ?? null,
    createdByAgentId: row.createdByAgentId ?? null,
    createdByUserId: row.createdByUserId ?? null,
    createdAt: row.createdAt,
    contentPath: assetContentPath(row.id),
  };
}

export function workProductView(row: WorkProductRow) {
  return {
    id: row.id,
    companyId: row.companyId,
    issueId: row.issueId,
    kind: row.kind,
    title: row.title,
    url: row.url ?? null,
    contentType: row.contentType ?? null,
    previewText: row.previewText ?? null,
    createdByAgentId: row.createdByAgentId ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

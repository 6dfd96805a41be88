// Attachment and asset rows behind their content routes (callers check the company).
import { eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { notFound } from "../errors";

/** The attachment row; 404 when unknown. */
export async function loadAttachment(db: Db, attachmentId: string) {
  const row = await db.query.issueAttachments.findFirst({ where: eq(schema.issueAttachments.id, attachmentId) });
  if (!row) throw notFound("Attachment not found");
  return row;
}

/** The asset row; 404 when unknown. */
export async function loadAsset(db: Db, assetId: string) {
  const row = await db.query.assets.findFirst({ where: eq(schema.assets.id, assetId) });
  if (!row) throw notFound("Asset not found");
  return row;
}

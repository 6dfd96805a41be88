// Wiki rows as the API and the tools show them.
import type { schema } from "../../db/client";
import type { SpaceRow } from "./space";

export type PageRow = typeof schema.wikiPages.$inferSelect;
export type SourceRow = typeof schema.wikiSources.$inferSelect;
export type OperationRow = typeof schema.wikiOperations.$inferSelect;
export type QuerySessionRow = typeof schema.wikiQuerySessions.$inferSelect;
export type RevisionRow = typeof schema.wikiPageRevisions.$inferSelect;

export const spaceView = (row: SpaceRow) => ({
  id: row.id,
  wikiId: row.wikiId,
  slug: row.slug,
  displayName: row.displayName,
  accessScope: row.accessScope,
  status: row.status,
  settings: row.settings,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export const pageView = (row: PageRow) => ({
  path: row.path,
  title: row.title,
  pageType: row.pageType,
  hash: row.hash,
  revisionId: row.revisionId,
  sizeBytes: row.sizeBytes,
  updatedAt: row.updatedAt,
});

export const revisionView = (row: RevisionRow) => ({
  revisionId: row.id,
  path: row.path,
  change: row.change,
  hash: row.hash,
  previousHash: row.previousHash,
  summary: row.summary,
  operationId: row.operationId,
  createdByAgentId: row.createdByAgentId,
  createdByUserId: row.createdByUserId,
  runId: row.runId,
  createdAt: row.createdAt,
});

export const sourceView = (row: SourceRow) => ({
  sourceId: row.id,
  rawPath: row.rawPath,
  title: row.title,
  sourceType: row.sourceType,
  url: row.url,
  hash: row.hash,
  sizeChars: row.sizeChars,
  metadata: row.metadata ?? null,
  createdAt: row.createdAt,
});

export const operationView = (row: OperationRow, spaceSlug: string | null) => ({
  id: row.id,
  wikiId: row.wikiId,
  spaceSlug,
  operationType: row.operationType,
  status: row.status,
  summary: row.summary,
  details: row.details ?? null,
  issueId: row.issueId,
  runId: row.runId,
  actor: { type: row.actorType, id: row.actorId },
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export const querySessionView = (row: QuerySessionRow) => ({
  id: row.id,
  operationId: row.operationId,
  question: row.question,
  title: row.title,
  issueId: row.issueId,
  runId: row.runId,
  status: row.status,
  answer: row.answer,
  filedPath: row.filedPath,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

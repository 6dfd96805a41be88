// Issue document mutations, run inside the company's Durable Object so revisions and
// locks of one company are decided one at a time: write (PUT), restore, delete, lock, unlock.
import type { Statement } from "../../db/batch";
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand, type CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { conflict, forbidden, notFound } from "../errors";
import { newId } from "../../crypto/random";
import { derivedDocumentKey } from "./keys";
import { lockState, lockedWriteOutcome, LOCK_TRANSITIONS, type LockAction } from "./lock";
import { reanchorStatements } from "./reanchor-threads";
import { documentView } from "./view";

type DocumentRow = typeof schema.issueDocuments.$inferSelect;
type RevisionRow = typeof schema.issueDocumentRevisions.$inferSelect;

export interface DocumentWriteInput {
  issueId: string;
  key: string;
  title?: string | null;
  format?: "markdown";
  body: string;
  changeSummary?: string | null;
  baseRevisionId?: string | null;
}

export const actorColumns = (actor: Actor) => ({
  agentId: actor.type === "agent" ? actor.agentId : null,
  userId: actor.type === "board" ? actor.userId : null,
});

export async function loadIssueInCompany(ctx: CommandContext, issueId: string) {
  const issue = await ctx.db.query.issues.findFirst({
    where: and(eq(schema.issues.id, issueId), eq(schema.issues.companyId, ctx.companyId)),
  });
  if (!issue) throw notFound("Issue not found");
  return issue;
}

export async function loadDocument(ctx: CommandContext, issueId: string, key: string) {
  return ctx.db.query.issueDocuments.findFirst({
    where: and(eq(schema.issueDocuments.issueId, issueId), eq(schema.issueDocuments.key, key)),
  });
}

async function requireDocument(ctx: CommandContext, issueId: string, key: string) {
  const doc = await loadDocument(ctx, issueId, key);
  if (!doc) throw notFound(`Document '${key}' not found`);
  return doc;
}

async function loadRevision(ctx: CommandContext, revisionId: string) {
  const rev = await ctx.db.query.issueDocumentRevisions.findFirst({ where: eq(schema.issueDocumentRevisions.id, revisionId) });
  if (!rev) throw new Error(`revision ${revisionId} missing`);
  return rev;
}

/** 409 for a locked document; the route lifts `key` and `lockedAt` to the top of the body. */
export function documentLockedError(doc: DocumentRow) {
  return conflict("Document is locked", {
    key: doc.key,
    lockedAt: doc.lockedAt,
    lockedByAgentId: doc.lockedByAgentId ?? null,
    lockedByUserId: doc.lockedByUserId ?? null,
  });
}

const batch = (ctx: CommandContext, statements: Statement[]) =>
  ctx.batch(statements);

interface RevisionContent {
  title: string | null;
  body: string;
  changeSummary: string | null;
  baseRevisionId: string | null;
  restoredFromRevisionId: string | null;
}

/** Creates a new document with revision 1. */
async function createDocument(ctx: CommandContext, actor: Actor, issueId: string, key: string, content: RevisionContent, action: string) {
  const who = actorColumns(actor);
  const documentId = newId();
  const revision: RevisionRow = {
    id: newId(),
    companyId: ctx.companyId,
    issueId,
    documentId,
    revisionNumber: 1,
    title: content.title,
    format: "markdown",
    body: content.body,
    changeSummary: content.changeSummary,
    baseRevisionId: null,
    restoredFromRevisionId: content.restoredFromRevisionId,
    createdByAgentId: who.agentId,
    createdByUserId: who.userId,
    createdAt: ctx.now,
  };
  const doc: DocumentRow = {
    id: documentId,
    companyId: ctx.companyId,
    issueId,
    key,
    title: content.title,
    format: "markdown",
    latestRevisionId: revision.id,
    latestRevisionNumber: 1,
    lockedAt: null,
    lockedByAgentId: null,
    lockedByUserId: null,
    createdByAgentId: who.agentId,
    createdByUserId: who.userId,
    updatedByAgentId: who.agentId,
    updatedByUserId: who.userId,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  await batch(ctx, [
    ctx.db.insert(schema.issueDocuments).values(doc),
    ctx.db.insert(schema.issueDocumentRevisions).values(revision),
    ctx.activity({
      action,
      entityType: "issue",
      entityId: issueId,
      details: { key, documentId, revisionId: revision.id, revisionNumber: 1 },
    }),
  ]);
  return documentView(doc, revision);
}

/** Appends revision latest+1 (the unique (document, number) index keeps the chain gap-free) and re-anchors threads. */
async function appendRevision(ctx: CommandContext, actor: Actor, doc: DocumentRow, content: RevisionContent, action: string) {
  const who = actorColumns(actor);
  const revision: RevisionRow = {
    id: newId(),
    companyId: ctx.companyId,
    issueId: doc.issueId,
    documentId: doc.id,
    revisionNumber: doc.latestRevisionNumber + 1,
    title: content.title,
    format: "markdown",
    body: content.body,
    changeSummary: content.changeSummary,
    baseRevisionId: content.baseRevisionId,
    restoredFromRevisionId: content.restoredFromRevisionId,
    createdByAgentId: who.agentId,
    createdByUserId: who.userId,
    createdAt: ctx.now,
  };
  const updated: DocumentRow = {
    ...doc,
    title: content.title,
    latestRevisionId: revision.id,
    latestRevisionNumber: revision.revisionNumber,
    updatedByAgentId: who.agentId,
    updatedByUserId: who.userId,
    updatedAt: ctx.now,
  };
  const anchors = await reanchorStatements(ctx.db, { documentId: doc.id, newRevisionId: revision.id, newText: content.body, now: ctx.now });
  await batch(ctx, [
    ctx.db.insert(schema.issueDocumentRevisions).values(revision),
    ctx.db
      .update(schema.issueDocuments)
      .set({
        title: updated.title,
        latestRevisionId: updated.latestRevisionId,
        latestRevisionNumber: updated.latestRevisionNumber,
        updatedByAgentId: updated.updatedByAgentId,
        updatedByUserId: updated.updatedByUserId,
        updatedAt: updated.updatedAt,
      })
      .where(and(eq(schema.issueDocuments.id, doc.id), eq(schema.issueDocuments.latestRevisionId, doc.latestRevisionId))),
    ...anchors,
    ctx.activity({
      action,
      entityType: "issue",
      entityId: doc.issueId,
      details: {
        key: doc.key,
        documentId: doc.id,
        revisionId: revision.id,
        revisionNumber: revision.revisionNumber,
        ...(content.restoredFromRevisionId ? { restoredFromRevisionId: content.restoredFromRevisionId } : {}),
      },
    }),
  ]);
  return documentView(updated, revision);
}

/** An agent's write to a locked document lands in a new derived document (`key-2`, `key-3`, …). */
async function redirectLockedWrite(ctx: CommandContext, actor: Actor, doc: DocumentRow, content: RevisionContent) {
  const siblings = await ctx.db
    .select({ key: schema.issueDocuments.key })
    .from(schema.issueDocuments)
    .where(eq(schema.issueDocuments.issueId, doc.issueId));
  const key = derivedDocumentKey(doc.key, new Set(siblings.map((s) => s.key)));
  const document = await createDocument(ctx, actor, doc.issueId, key, { ...content, baseRevisionId: null }, "issue.document_created");
  return { document, created: true, redirectedFromLockedDocument: { sourceKey: doc.key, key } };
}

export type DocumentWriteResult = {
  document: ReturnType<typeof documentView>;
  created: boolean;
  redirectedFromLockedDocument?: { sourceKey: string; key: string };
};

export const putDocument = defineCommand("document.put", async (ctx, actor, input: DocumentWriteInput): Promise<DocumentWriteResult> => {
  await loadIssueInCompany(ctx, input.issueId);
  const doc = await loadDocument(ctx, input.issueId, input.key);
  const content: RevisionContent = {
    title: input.title ?? null,
    body: input.body,
    changeSummary: input.changeSummary ?? null,
    baseRevisionId: input.baseRevisionId ?? null,
    restoredFromRevisionId: null,
  };
  if (!doc) {
    if (input.baseRevisionId) {
      throw conflict("Document does not exist; omit baseRevisionId to create it", { key: input.key, currentRevisionId: null });
    }
    return { document: await createDocument(ctx, actor, input.issueId, input.key, content, "issue.document_created"), created: true };
  }
  if (lockState(doc) === "locked") {
    if (lockedWriteOutcome(actor) === "conflict") throw documentLockedError(doc);
    return redirectLockedWrite(ctx, actor, doc, content);
  }
  if (!input.baseRevisionId) {
    throw conflict("Document update requires baseRevisionId", { key: doc.key, currentRevisionId: doc.latestRevisionId });
  }
  if (input.baseRevisionId !== doc.latestRevisionId) {
    throw conflict("Document was updated by someone else", {
      key: doc.key,
      baseRevisionId: input.baseRevisionId,
      currentRevisionId: doc.latestRevisionId,
      currentRevisionNumber: doc.latestRevisionNumber,
    });
  }
  // Title is kept when the write omits it.
  if (input.title === undefined) content.title = doc.title ?? null;
  return { document: await appendRevision(ctx, actor, doc, content, "issue.document_updated"), created: false };
});

export const restoreDocumentRevision = defineCommand("document.restore", 
  async (
    ctx,
    actor,
    input: { issueId: string; key: string; revisionId: string; changeSummary?: string | null; baseRevisionId?: string | null },
  ): Promise<DocumentWriteResult> => {
    const doc = await requireDocument(ctx, input.issueId, input.key);
    const source = await ctx.db.query.issueDocumentRevisions.findFirst({
      where: and(eq(schema.issueDocumentRevisions.id, input.revisionId), eq(schema.issueDocumentRevisions.documentId, doc.id)),
    });
    if (!source) throw notFound("Revision not found");
    const content: RevisionContent = {
      title: source.title ?? null,
      body: source.body,
      changeSummary: input.changeSummary ?? `Restored revision ${source.revisionNumber}`,
      baseRevisionId: doc.latestRevisionId,
      restoredFromRevisionId: source.id,
    };
    if (lockState(doc) === "locked") {
      if (lockedWriteOutcome(actor) === "conflict") throw documentLockedError(doc);
      return redirectLockedWrite(ctx, actor, doc, content);
    }
    if (input.baseRevisionId && input.baseRevisionId !== doc.latestRevisionId) {
      throw conflict("Document was updated by someone else", {
        key: doc.key,
        baseRevisionId: input.baseRevisionId,
        currentRevisionId: doc.latestRevisionId,
        currentRevisionNumber: doc.latestRevisionNumber,
      });
    }
    return { document: await appendRevision(ctx, actor, doc, content, "issue.document_restored"), created: false };
  },
);

export const deleteDocument = defineCommand("document.delete", async (ctx, actor, input: { issueId: string; key: string }) => {
  const doc = await requireDocument(ctx, input.issueId, input.key);
  if (lockState(doc) === "locked") throw documentLockedError(doc);
  await batch(ctx, [
    ctx.db.delete(schema.issueDocuments).where(eq(schema.issueDocuments.id, doc.id)),
    ctx.activity({
      action: "issue.document_deleted",
      entityType: "issue",
      entityId: doc.issueId,
      details: { key: doc.key, documentId: doc.id, revisionCount: doc.latestRevisionNumber },
    }),
  ]);
  return { deleted: true as const, key: doc.key, documentId: doc.id };
});

async function changeLock(ctx: CommandContext, actor: Actor, input: { issueId: string; key: string }, action: LockAction) {
  const doc = await requireDocument(ctx, input.issueId, input.key);
  const from = lockState(doc);
  // A lock set by the board keeps agents out; an agent may lift only a lock it set itself.
  if (action === "unlock" && from === "locked" && actor.type === "agent" && doc.lockedByAgentId !== actor.agentId) {
    throw forbidden("Only board users or the agent that locked the document may unlock it");
  }
  const to = LOCK_TRANSITIONS[from][action];
  let updated = doc;
  if (to && to !== from) {
    const who = actorColumns(actor);
    const lock =
      to === "locked"
        ? { lockedAt: ctx.now, lockedByAgentId: who.agentId, lockedByUserId: who.userId }
        : { lockedAt: null, lockedByAgentId: null, lockedByUserId: null };
    updated = { ...doc, ...lock };
    await batch(ctx, [
      ctx.db.update(schema.issueDocuments).set(lock).where(eq(schema.issueDocuments.id, doc.id)),
      ctx.activity({
        action: to === "locked" ? "issue.document_locked" : "issue.document_unlocked",
        entityType: "issue",
        entityId: doc.issueId,
        details: { key: doc.key, documentId: doc.id },
      }),
    ]);
  }
  return documentView(updated, await loadRevision(ctx, doc.latestRevisionId));
}

export const lockDocument = defineCommand("document.lock", (ctx, actor, input: { issueId: string; key: string }) => changeLock(ctx, actor, input, "lock"));
export const unlockDocument = defineCommand("document.unlock", (ctx, actor, input: { issueId: string; key: string }) => changeLock(ctx, actor, input, "unlock"));

export const documentCommands = [putDocument, restoreDocumentRevision, deleteDocument, lockDocument, unlockDocument];

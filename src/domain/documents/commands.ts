// Issue document mutations, run inside the company's Durable Object so revisions and
// locks of one company are decided one at a time: write (PUT), restore, delete, lock, unlock.
import type { Statement } from "../../db/batch";
import { and, eq, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { ReadBatch } from "../../db/read-batch";
import { template, type Slots } from "../../db/templates";
import { defineCommand, type CommandContext, type LoadScope } from "../../company/command";
import type { Actor } from "../actor";
import { conflict, forbidden, notFound } from "../errors";
import { newId } from "../../crypto/random";
import { derivedDocumentKey } from "./keys";
import { lockState, lockedWriteOutcome, LOCK_TRANSITIONS, type LockAction } from "./lock";
import { reanchorStatements } from "./reanchor-threads";
import { documentView } from "./view";

type DocumentRow = typeof schema.issueDocuments.$inferSelect;
type RevisionRow = typeof schema.issueDocumentRevisions.$inferSelect;
type ThreadRow = typeof schema.documentAnnotationThreads.$inferSelect;

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

const batch = (ctx: CommandContext, statements: Statement[]) => ctx.batch(statements);

interface RevisionContent {
  title: string | null;
  body: string;
  changeSummary: string | null;
  baseRevisionId: string | null;
  restoredFromRevisionId: string | null;
}

/** Creates a new document with revision 1. */
async function createDocument(
  ctx: CommandContext,
  actor: Actor,
  issueId: string,
  key: string,
  content: RevisionContent,
  action: string,
  guards: Statement[] = [],
) {
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
    ...guards,
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
async function appendRevision(
  ctx: CommandContext,
  actor: Actor,
  doc: DocumentRow,
  content: RevisionContent,
  action: string,
  preloaded?: { guards: Statement[]; threads: ThreadRow[]; anchorBodies: Map<string, string> },
) {
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
  const anchors = await reanchorStatements(ctx.db, {
    documentId: doc.id,
    newRevisionId: revision.id,
    newText: content.body,
    now: ctx.now,
    threads: preloaded?.threads,
    anchorBodies: preloaded?.anchorBodies,
  });
  await batch(ctx, [
    ...(preloaded?.guards ?? []),
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
async function redirectLockedWrite(
  ctx: CommandContext,
  actor: Actor,
  doc: DocumentRow,
  content: RevisionContent,
  preloaded?: { siblingKeys: string[]; guards: (key: string) => Statement[] },
) {
  const siblings =
    preloaded?.siblingKeys ??
    (await ctx.db.select({ key: schema.issueDocuments.key }).from(schema.issueDocuments).where(eq(schema.issueDocuments.issueId, doc.issueId))).map(
      (s) => s.key,
    );
  const key = derivedDocumentKey(doc.key, new Set(siblings));
  const document = await createDocument(ctx, actor, doc.issueId, key, { ...content, baseRevisionId: null }, "issue.document_created", preloaded?.guards(key));
  return { document, created: true, redirectedFromLockedDocument: { sourceKey: doc.key, key } };
}

export type DocumentWriteResult = {
  document: ReturnType<typeof documentView>;
  created: boolean;
  redirectedFromLockedDocument?: { sourceKey: string; key: string };
};

/** What a document write decides on, read in one batch outside the serialised section. */
interface DocumentWriteLoaded {
  issue: { id: string; companyId: string } | undefined;
  doc: DocumentRow | undefined;
  siblingKeys: string[];
  threads: ThreadRow[];
  anchorBodies: Map<string, string>;
}

/** What a document write reads, built once (src/db/templates.ts): the issue, its documents, the open threads of `key` and their anchor bodies. */
const documentWriteReads = (() => {
  const t = schema.documentAnnotationThreads;
  const documentId = (slot: Slots<"issueId" | "key">) =>
    sql`(SELECT ${schema.issueDocuments.id} FROM ${schema.issueDocuments} WHERE ${schema.issueDocuments.issueId} = ${slot.issueId} AND ${schema.issueDocuments.key} = ${slot.key})`;
  return {
    issue: template(["issueId"], (db, slot) =>
      db.select({ id: schema.issues.id, companyId: schema.issues.companyId }).from(schema.issues).where(eq(schema.issues.id, slot.issueId)),
    ),
    docs: template(["issueId"], (db, slot) => db.select().from(schema.issueDocuments).where(eq(schema.issueDocuments.issueId, slot.issueId))),
    threads: template(["issueId", "key"], (db, slot) =>
      db
        .select()
        .from(t)
        .where(and(sql`${t.documentId} = ${documentId(slot)}`, eq(t.status, "open"))),
    ),
    bodies: template(["issueId", "key"], (db, slot) =>
      db
        .select({ id: schema.issueDocumentRevisions.id, body: schema.issueDocumentRevisions.body })
        .from(schema.issueDocumentRevisions)
        .where(
          sql`${schema.issueDocumentRevisions.id} IN (SELECT ${t.anchorRevisionId} FROM ${t} WHERE ${t.documentId} = ${documentId(slot)} AND ${t.status} = 'open')`,
        ),
    ),
  };
})();

async function loadDocumentWrite(db: Db, issueId: string, key: string): Promise<DocumentWriteLoaded> {
  const batch = new ReadBatch(db);
  const issue = batch.add(documentWriteReads.issue(db, { issueId }));
  const docs = batch.add(documentWriteReads.docs(db, { issueId }));
  const threads = batch.add(documentWriteReads.threads(db, { issueId, key }));
  const bodies = batch.add(documentWriteReads.bodies(db, { issueId, key }));
  await batch.run();
  return {
    issue: issue.value[0],
    doc: docs.value.find((d) => d.key === key),
    siblingKeys: docs.value.map((d) => d.key),
    threads: threads.value,
    anchorBodies: new Map(bodies.value.map((b) => [b.id, b.body])),
  };
}

/** The open threads' state a re-anchoring was computed from (their count and latest change). */
// biome-ignore lint/complexity/useMathMinMax: the latest of ISO timestamps (strings), not numbers
const threadsStamp = (threads: ThreadRow[]) => `${threads.length}:${threads.reduce((max, t) => (t.updatedAt > max ? t.updatedAt : max), "")}`;

/**
 * The preconditions of a document write, checked in its batch: the issue is still the company's,
 * the document is as read (absent, or at the same revision and lock), its open threads unchanged,
 * and a derived key for a locked write still free. Any change → StaleRead → re-read and decide again.
 */
function documentWriteGuard(ctx: CommandContext, input: DocumentWriteInput, loaded: DocumentWriteLoaded, derivedKey?: string): Statement {
  const d = schema.issueDocuments;
  const t = schema.documentAnnotationThreads;
  const { doc } = loaded;
  const conditions = [
    sql`EXISTS (SELECT 1 FROM ${schema.issues} WHERE ${schema.issues.id} = ${input.issueId} AND ${schema.issues.companyId} = ${ctx.companyId})`,
  ];
  if (!doc) conditions.push(sql`NOT EXISTS (SELECT 1 FROM ${d} WHERE ${d.issueId} = ${input.issueId} AND ${d.key} = ${input.key})`);
  else {
    conditions.push(
      sql`EXISTS (SELECT 1 FROM ${d} WHERE ${d.id} = ${doc.id} AND ${d.latestRevisionId} = ${doc.latestRevisionId} AND ${d.lockedAt} IS ${doc.lockedAt})`,
    );
    conditions.push(
      sql`(SELECT count(*) || ':' || coalesce(max(${t.updatedAt}), '') FROM ${t} WHERE ${t.documentId} = ${doc.id} AND ${t.status} = 'open') = ${threadsStamp(loaded.threads)}`,
    );
  }
  if (derivedKey) conditions.push(sql`NOT EXISTS (SELECT 1 FROM ${d} WHERE ${d.issueId} = ${input.issueId} AND ${d.key} = ${derivedKey})`);
  return ctx.guard(sql.join(conditions, sql` AND `));
}

export const putDocument = defineCommand("document.put", {
  /** The issue, its documents, and the open threads with their anchor texts: one batch. */
  load: (db: Db, _scope: LoadScope, input: DocumentWriteInput) => loadDocumentWrite(db, input.issueId, input.key),
  run: async (ctx, actor, input, loaded): Promise<DocumentWriteResult> => {
    if (!loaded.issue || loaded.issue.companyId !== ctx.companyId) throw notFound("Issue not found");
    const { doc } = loaded;
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
      const guards = [documentWriteGuard(ctx, input, loaded)];
      return { document: await createDocument(ctx, actor, input.issueId, input.key, content, "issue.document_created", guards), created: true };
    }
    if (lockState(doc) === "locked") {
      if (lockedWriteOutcome(actor) === "conflict") throw documentLockedError(doc);
      return redirectLockedWrite(ctx, actor, doc, content, {
        siblingKeys: loaded.siblingKeys,
        guards: (key) => [documentWriteGuard(ctx, input, loaded, key)],
      });
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
    const preloaded = { guards: [documentWriteGuard(ctx, input, loaded)], threads: loaded.threads, anchorBodies: loaded.anchorBodies };
    return { document: await appendRevision(ctx, actor, doc, content, "issue.document_updated", preloaded), created: false };
  },
});

export const restoreDocumentRevision = defineCommand(
  "document.restore",
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
export const unlockDocument = defineCommand("document.unlock", (ctx, actor, input: { issueId: string; key: string }) =>
  changeLock(ctx, actor, input, "unlock"),
);

export const documentCommands = [putDocument, restoreDocumentRevision, deleteDocument, lockDocument, unlockDocument];

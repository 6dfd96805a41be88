// Annotation thread mutations (create, reply, resolve, reopen), run in the company's
// Durable Object so they are ordered with the document revisions they anchor to.
import type { Statement } from "../../db/batch";
import { and, asc, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand, type CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { badRequest, conflict, notFound } from "../errors";
import { newId } from "../../crypto/random";
import { contextAround, validateAnchor } from "./anchoring";
import { actorColumns, loadDocument } from "./commands";
import { reanchorStatements } from "./reanchor-threads";
import { annotationThreadView } from "./view";

type ThreadRow = typeof schema.documentAnnotationThreads.$inferSelect;
type CommentRow = typeof schema.documentAnnotationComments.$inferSelect;

export interface CreateAnnotationInput {
  issueId: string;
  key: string;
  revisionId: string;
  start: number;
  end: number;
  quote: string;
  prefix?: string;
  suffix?: string;
  body: string;
}

const batch = (ctx: CommandContext, statements: Statement[]) => ctx.batch(statements);

async function requireDocument(ctx: CommandContext, issueId: string, key: string) {
  const doc = await loadDocument(ctx, issueId, key);
  if (!doc || doc.companyId !== ctx.companyId) throw notFound(`Document '${key}' not found`);
  return doc;
}

async function requireThread(ctx: CommandContext, input: { issueId: string; key: string; threadId: string }) {
  const doc = await requireDocument(ctx, input.issueId, input.key);
  const thread = await ctx.db.query.documentAnnotationThreads.findFirst({
    where: and(eq(schema.documentAnnotationThreads.id, input.threadId), eq(schema.documentAnnotationThreads.documentId, doc.id)),
  });
  if (!thread) throw notFound("Annotation thread not found");
  return { doc, thread };
}

async function threadComments(ctx: CommandContext, threadId: string) {
  return ctx.db.query.documentAnnotationComments.findMany({
    where: eq(schema.documentAnnotationComments.threadId, threadId),
    orderBy: [asc(schema.documentAnnotationComments.createdAt), asc(schema.documentAnnotationComments.id)],
  });
}

function annotationActivity(ctx: CommandContext, actor: Actor, action: string, thread: ThreadRow, key: string, extra: Record<string, unknown> = {}) {
  return ctx.activity({
    action,
    entityType: "issue",
    entityId: thread.issueId,
    details: { key, documentId: thread.documentId, threadId: thread.id, ...extra },
  });
}

export const createAnnotation = defineCommand("annotation.create", async (ctx, actor, input: CreateAnnotationInput) => {
  const doc = await requireDocument(ctx, input.issueId, input.key);
  if (input.revisionId !== doc.latestRevisionId) {
    throw conflict("Annotations must be created on the document's current revision", {
      revisionId: input.revisionId,
      currentRevisionId: doc.latestRevisionId,
    });
  }
  const revision = await ctx.db.query.issueDocumentRevisions.findFirst({ where: eq(schema.issueDocumentRevisions.id, doc.latestRevisionId) });
  const text = revision?.body ?? "";
  const problem = validateAnchor(text, input);
  if (problem) throw badRequest(`Invalid annotation anchor: ${problem}`, { start: input.start, end: input.end, bodyLength: text.length });

  const who = actorColumns(actor);
  const context = contextAround(text, input.start, input.end);
  const thread: ThreadRow = {
    id: newId(),
    companyId: ctx.companyId,
    issueId: doc.issueId,
    documentId: doc.id,
    createdRevisionId: doc.latestRevisionId,
    anchorRevisionId: doc.latestRevisionId,
    anchorStart: input.start,
    anchorEnd: input.end,
    quote: input.quote,
    prefix: context.prefix,
    suffix: context.suffix,
    anchorState: "active",
    status: "open",
    resolvedAt: null,
    resolvedByAgentId: null,
    resolvedByUserId: null,
    createdByAgentId: who.agentId,
    createdByUserId: who.userId,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  const comment: CommentRow = {
    id: newId(),
    companyId: ctx.companyId,
    threadId: thread.id,
    body: input.body,
    authorAgentId: who.agentId,
    authorUserId: who.userId,
    createdAt: ctx.now,
  };
  await batch(ctx, [
    ctx.db.insert(schema.documentAnnotationThreads).values(thread),
    ctx.db.insert(schema.documentAnnotationComments).values(comment),
    annotationActivity(ctx, actor, "issue.document_annotation_created", thread, doc.key, { revisionId: doc.latestRevisionId }),
  ]);
  return annotationThreadView(thread, doc.key, [comment]);
});

export const addAnnotationComment = defineCommand(
  "annotation.comment",
  async (ctx, actor, input: { issueId: string; key: string; threadId: string; body: string }) => {
    const { doc, thread } = await requireThread(ctx, input);
    const who = actorColumns(actor);
    const comment: CommentRow = {
      id: newId(),
      companyId: ctx.companyId,
      threadId: thread.id,
      body: input.body,
      authorAgentId: who.agentId,
      authorUserId: who.userId,
      createdAt: ctx.now,
    };
    await batch(ctx, [
      ctx.db.insert(schema.documentAnnotationComments).values(comment),
      ctx.db.update(schema.documentAnnotationThreads).set({ updatedAt: ctx.now }).where(eq(schema.documentAnnotationThreads.id, thread.id)),
      annotationActivity(ctx, actor, "issue.document_annotation_commented", thread, doc.key, { commentId: comment.id }),
    ]);
    return annotationThreadView({ ...thread, updatedAt: ctx.now }, doc.key, await threadComments(ctx, thread.id));
  },
);

/** open → resolved and back; repeating the current state's action is a no-op. */
const THREAD_TRANSITIONS: Record<ThreadRow["status"], Partial<Record<"resolve" | "reopen", ThreadRow["status"]>>> = {
  open: { resolve: "resolved" },
  resolved: { reopen: "open" },
};

async function changeThreadStatus(ctx: CommandContext, actor: Actor, input: { issueId: string; key: string; threadId: string }, action: "resolve" | "reopen") {
  const { doc, thread } = await requireThread(ctx, input);
  const to = THREAD_TRANSITIONS[thread.status][action];
  if (!to) return annotationThreadView(thread, doc.key, await threadComments(ctx, thread.id));
  const who = actorColumns(actor);
  const statements: Statement[] = [];
  if (to === "resolved") {
    statements.push(
      ctx.db
        .update(schema.documentAnnotationThreads)
        .set({ status: "resolved", resolvedAt: ctx.now, resolvedByAgentId: who.agentId, resolvedByUserId: who.userId, updatedAt: ctx.now })
        .where(eq(schema.documentAnnotationThreads.id, thread.id)),
    );
  } else {
    statements.push(
      ctx.db
        .update(schema.documentAnnotationThreads)
        .set({ status: "open", resolvedAt: null, resolvedByAgentId: null, resolvedByUserId: null, updatedAt: ctx.now })
        .where(eq(schema.documentAnnotationThreads.id, thread.id)),
    );
    // A resolved thread was not carried along while closed: bring it to the current revision now.
    if (thread.anchorRevisionId !== doc.latestRevisionId) {
      const latest = await ctx.db.query.issueDocumentRevisions.findFirst({ where: eq(schema.issueDocumentRevisions.id, doc.latestRevisionId) });
      statements.push(
        ...(await reanchorStatements(ctx.db, {
          documentId: doc.id,
          newRevisionId: doc.latestRevisionId,
          newText: latest?.body ?? "",
          now: ctx.now,
          threads: [thread],
        })),
      );
    }
  }
  statements.push(
    annotationActivity(ctx, actor, to === "resolved" ? "issue.document_annotation_resolved" : "issue.document_annotation_reopened", thread, doc.key),
  );
  await batch(ctx, statements);
  const fresh = await ctx.db.query.documentAnnotationThreads.findFirst({ where: eq(schema.documentAnnotationThreads.id, thread.id) });
  return annotationThreadView(fresh!, doc.key, await threadComments(ctx, thread.id));
}

export const resolveAnnotation = defineCommand("annotation.resolve", (ctx, actor, input: { issueId: string; key: string; threadId: string }) =>
  changeThreadStatus(ctx, actor, input, "resolve"),
);
export const reopenAnnotation = defineCommand("annotation.reopen", (ctx, actor, input: { issueId: string; key: string; threadId: string }) =>
  changeThreadStatus(ctx, actor, input, "reopen"),
);

export const annotationCommands = [createAnnotation, addAnnotationComment, resolveAnnotation, reopenAnnotation];

// Feedback traces: recording one (the target must be in the company; its issue and project are
// derived from it) and reading them with filters. A trace is `shared` only when its writer asked
// and the company's feedbackSharingConsent was enabled at that moment; `sharedOnly` lists those.
import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import { ReadBatch } from "../../db/read-batch";
import { schema, type Db } from "../../db/client";
import { defineCommand } from "../../company/command";
import { newId } from "../../crypto/random";
import { unprocessable } from "../errors";
import type { CreateFeedbackTraceBody, FeedbackTraceFilters } from "../../schemas/feedback";

type TraceRow = typeof schema.feedbackTraces.$inferSelect;
const MAX_PAYLOAD_BYTES = 64 * 1024;

export function traceView(row: TraceRow, includePayload = false) {
  const { payload, ...rest } = row;
  return { ...rest, ...(includePayload ? { payload: payload ?? null } : {}) };
}

interface TargetFacts {
  exists: boolean;
  issueId: string | null;
  projectId: string | null;
  consent: boolean;
}

/** The target (in the company), the issue and project it belongs to, and the company's consent: one batch. */
async function loadTarget(db: Db, companyId: string, body: CreateFeedbackTraceBody): Promise<TargetFacts> {
  const batch = new ReadBatch(db);
  const i = schema.issues;
  const company = batch.add(db.select({ consent: schema.companies.feedbackSharingConsent }).from(schema.companies).where(eq(schema.companies.id, companyId)));
  const onIssue = { id: i.id, projectId: i.projectId };
  /** A comment or document row of an issue of the company. */
  const childOfIssue = (table: typeof schema.issueComments | typeof schema.issueDocuments) =>
    batch.add(
      db
        .select(onIssue)
        .from(table)
        .innerJoin(i, eq(i.id, table.issueId))
        .where(and(eq(table.id, body.targetId), eq(i.companyId, companyId))),
    );
  let target;
  switch (body.targetType) {
    case "issue":
      target = batch.add(
        db
          .select(onIssue)
          .from(i)
          .where(and(eq(i.id, body.targetId), eq(i.companyId, companyId))),
      );
      break;
    case "comment":
      target = childOfIssue(schema.issueComments);
      break;
    case "document":
      target = childOfIssue(schema.issueDocuments);
      break;
    case "run":
      target = batch.add(
        db
          .select({ id: schema.heartbeatRuns.issueId, projectId: i.projectId })
          .from(schema.heartbeatRuns)
          .leftJoin(i, eq(i.id, schema.heartbeatRuns.issueId))
          .where(and(eq(schema.heartbeatRuns.id, body.targetId), eq(schema.heartbeatRuns.companyId, companyId))),
      );
      break;
    case "approval":
      target = batch.add(
        db
          .select({ id: schema.approvals.id, projectId: sql<string | null>`NULL` })
          .from(schema.approvals)
          .where(and(eq(schema.approvals.id, body.targetId), eq(schema.approvals.companyId, companyId))),
      );
      break;
  }
  await batch.run();
  const row = target.value[0];
  const consent = company.value[0]?.consent as { enabled?: unknown } | null | undefined;
  const aboutIssue = body.targetType !== "approval";
  return {
    exists: Boolean(row),
    issueId: aboutIssue ? (row?.id ?? null) : null,
    projectId: aboutIssue ? (row?.projectId ?? null) : null,
    consent: consent?.enabled === true,
  };
}

export const recordFeedbackTrace = defineCommand("feedback.record", {
  load: async (db, scope, input: CreateFeedbackTraceBody) => {
    if (input.payload && JSON.stringify(input.payload).length > MAX_PAYLOAD_BYTES)
      throw unprocessable(`payload may be at most ${MAX_PAYLOAD_BYTES} bytes of JSON`);
    const facts = await loadTarget(db, scope.companyId!, input);
    if (!facts.exists)
      throw unprocessable(`targetId must reference a ${input.targetType} of this company`, { targetType: input.targetType, targetId: input.targetId });
    return facts;
  },
  run: async (ctx, actor, input, facts) => {
    const row: TraceRow = {
      id: newId(),
      companyId: ctx.companyId,
      targetType: input.targetType,
      targetId: input.targetId,
      issueId: facts.issueId,
      projectId: facts.projectId,
      vote: input.vote,
      status: "open",
      comment: input.comment ?? null,
      payload: input.payload ?? null,
      shared: Boolean(input.share) && facts.consent,
      createdByAgentId: actor.type === "agent" ? actor.agentId : null,
      createdByUserId: actor.type === "board" ? actor.userId : null,
      createdAt: ctx.now,
    };
    await ctx.batch([
      ctx.db.insert(schema.feedbackTraces).values(row),
      ctx.activity({
        action: "feedback.recorded",
        entityType: input.targetType,
        entityId: input.targetId,
        details: { traceId: row.id, vote: row.vote, shared: row.shared },
      }),
    ]);
    return { ...traceView(row, true), ...(input.share && !facts.consent ? { warning: "Not shared: the company has not enabled feedbackSharingConsent" } : {}) };
  },
});

export async function listFeedbackTraces(db: Db, companyId: string, f: FeedbackTraceFilters) {
  const t = schema.feedbackTraces;
  const rows = await db
    .select()
    .from(t)
    .where(
      and(
        eq(t.companyId, companyId),
        f.targetType ? eq(t.targetType, f.targetType) : undefined,
        f.vote ? eq(t.vote, f.vote) : undefined,
        f.status ? eq(t.status, f.status) : undefined,
        f.issueId ? eq(t.issueId, f.issueId) : undefined,
        f.projectId ? eq(t.projectId, f.projectId) : undefined,
        f.from ? gte(t.createdAt, f.from) : undefined,
        f.to ? lt(t.createdAt, f.to) : undefined,
        f.sharedOnly ? eq(t.shared, true) : undefined,
      ),
    )
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(f.limit ?? 100);
  return rows.map((row) => traceView(row, f.includePayload ?? false));
}

export const feedbackCommands = [recordFeedbackTrace];

// Query sessions: a question put to the wiki's maintainer becomes an operation issue assigned to
// it, created through the issues domain's own command (so the assignment wakes the maintainer
// through the run engine) in the same batch as the session and its operation. The run that
// answers ends the session (triggers in migrations/0018_plugins_wiki.sql emit wiki.query.*);
// file-as-page then files the answer as a page. A paused or missing maintainer leaves a blocked
// operation and answers 409.
import { and, eq, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { hasFollowUps, type Statement } from "../../db/batch";
import { defineCommand, type CommandContext, type LoadScope } from "../../company/command";
import { badRequest, conflict, notFound } from "../errors";
import { newId } from "../../crypto/random";
import { createIssue, type CreateIssueInput } from "../issues/commands";
import { spaceSlugOf, wikiIdOf, type WikiRef } from "./space";
import { ensureSpace } from "./spaces";
import { operationInsert } from "./operations";
import { checkExpectedHash, loadPage, writePageContents, type PageLoaded } from "./pages";
import { requirePagePath } from "./paths";
import type { QuerySessionRow } from "./view";

/** Issues of query sessions carry this origin (originId: the session id). */
export const QUERY_ISSUE_ORIGIN = "plugin:knowledge-wiki:query";
const RUNNABLE_STATUSES = new Set(["idle", "active", "running", "error"]);

export interface StartQueryInput extends WikiRef {
  question: string;
  title?: string | null;
}

async function maintainerOf(ctx: CommandContext, wikiId: string) {
  const i = schema.wikiInstances;
  const a = schema.agents;
  const [instance] = await ctx.db
    .select()
    .from(i)
    .where(and(eq(i.companyId, ctx.companyId), eq(i.wikiId, wikiId)));
  const [agent] = instance?.managedAgentId
    ? await ctx.db
        .select({ id: a.id, name: a.name, status: a.status })
        .from(a)
        .where(and(eq(a.id, instance.managedAgentId), eq(a.companyId, ctx.companyId)))
    : [];
  return { instance, agent };
}

const issueDescription = (input: StartQueryInput, sessionId: string, spaceSlug: string) =>
  `${input.question}\n\n---\nKnowledge wiki query session \`${sessionId}\` (wiki \`${wikiIdOf(input)}\`, space \`${spaceSlug}\`). ` +
  "Answer from the wiki with the pages you used cited (knowledge-wiki tools); finish the run with the answer as `answer` (or its summary).";

export const startQuery = defineCommand("wiki.query.start", async (ctx, actor, input: StartQueryInput) => {
  const wikiId = wikiIdOf(input);
  const spaceSlug = spaceSlugOf(input);
  const space = await ensureSpace(ctx, actor, input);
  const { instance, agent } = await maintainerOf(ctx, wikiId);
  const title = (input.title?.trim() || input.question.trim().split("\n")[0]).slice(0, 200);
  const sessionId = newId();
  const blockedReason = !agent ? "missing" : agent.status === "terminated" ? "terminated" : !RUNNABLE_STATUSES.has(agent.status) ? agent.status : null;
  const session = (status: QuerySessionRow["status"], operationId: string, issueId: QuerySessionRow["issueId"] | ReturnType<typeof sql>) => ({
    id: sessionId,
    companyId: ctx.companyId,
    spaceId: space.id,
    operationId,
    question: input.question,
    title,
    issueId: issueId as string | null,
    runId: null,
    status,
    answer: null,
    filedPath: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  if (blockedReason) {
    const operation = operationInsert(ctx, actor, {
      wikiId,
      spaceId: space.id,
      operationType: "query",
      status: "blocked",
      summary: `Maintainer ${blockedReason}`,
      details: { querySessionId: sessionId, question: input.question, blockedReason, maintainerAgentId: agent?.id ?? null },
    });
    await ctx.batch([
      operation.statement,
      ctx.db.insert(schema.wikiQuerySessions).values(session("blocked", operation.row.id, null)),
      ctx.activity({
        action: "wiki.query_blocked",
        entityType: "wiki_query",
        entityId: sessionId,
        details: { wikiId, spaceSlug, querySessionId: sessionId, operationId: operation.row.id, reason: blockedReason, maintainerAgentId: agent?.id ?? null },
      }),
    ]);
    const message = !agent
      ? "The wiki has no maintainer agent: bootstrap the wiki (POST …/bootstrap) first"
      : `The wiki maintainer ${agent.name} is ${blockedReason}: resume it to run query sessions`;
    throw conflict(message, {
      status: "blocked",
      reason: blockedReason,
      operationId: operation.row.id,
      querySessionId: sessionId,
      maintainerAgentId: agent?.id ?? null,
    });
  }
  const issueInput: CreateIssueInput = {
    title: `Wiki query: ${title}`.slice(0, 500),
    description: issueDescription(input, sessionId, spaceSlug),
    status: "todo",
    priority: "medium",
    assigneeAgentId: agent!.id,
    projectId: instance?.managedProjectId ?? null,
    originKind: QUERY_ISSUE_ORIGIN,
    originId: sessionId,
  };
  const issueLoaded = await createIssue.load!(ctx.db, { env: ctx.env, actor, now: ctx.now, companyId: ctx.companyId }, issueInput);
  const is = schema.issues;
  const issueId = sql`(SELECT ${is.id} FROM ${is} WHERE ${is.companyId} = ${ctx.companyId} AND ${is.originKind} = ${QUERY_ISSUE_ORIGIN} AND ${is.originId} = ${sessionId})`;
  const operation = operationInsert(ctx, actor, {
    wikiId,
    spaceId: space.id,
    operationType: "query",
    status: "running",
    summary: title,
    details: { querySessionId: sessionId, question: input.question, maintainerAgentId: agent!.id },
  });
  // Written in the issue's own batch, after the issue row (its id is read back by origin).
  const sessionStatements: Statement[] = [
    ctx.db.insert(schema.wikiOperations).values({ ...operation.row, issueId: issueId as unknown as string }),
    ctx.db.insert(schema.wikiQuerySessions).values(session("running", operation.row.id, issueId)),
    ctx.activity({
      action: "wiki.query_started",
      entityType: "wiki_query",
      entityId: sessionId,
      details: { wikiId, spaceSlug, querySessionId: sessionId, operationId: operation.row.id, title, maintainerAgentId: agent!.id },
    }),
  ];
  // The issue command's write batch is the one carrying its activity entry's events (its reads, the
  // cold issue numbering, carry none); a retry after a number clash writes them again, atomically.
  const withSession = Object.create(ctx, {
    batch: { value: (statements: readonly Statement[]) => ctx.batch(hasFollowUps(statements) ? [...statements, ...sessionStatements] : statements) },
  }) as CommandContext;
  const issue = await createIssue.run(withSession, actor, issueInput, issueLoaded);
  return { status: "running" as const, operationId: operation.row.id, querySessionId: sessionId, issue, runId: null };
});

export interface FileAsPageInput extends WikiRef {
  path: string;
  title?: string | null;
  contents?: string | null;
  answer?: string | null;
  querySessionId?: string | null;
  expectedHash?: string | null;
}

interface FileAsPageLoaded extends PageLoaded {
  session: QuerySessionRow | undefined;
}

/** The page a filed answer becomes: the title, the question quoted, the answer. */
export const answerPage = (title: string, question: string | null, answer: string) =>
  `# ${title}\n\n${question ? `> ${question.trim().replace(/\n/g, "\n> ")}\n\n` : ""}${answer.trim()}\n`;

export const fileAsPage = defineCommand("wiki.fileAsPage", {
  load: async (db: Db, scope: LoadScope, input: FileAsPageInput): Promise<FileAsPageLoaded> => {
    const companyId = scope.companyId!;
    const q = schema.wikiQuerySessions;
    const sessionId = input.querySessionId;
    const loaded = await loadPage(db, companyId, input, input.path, {
      more: sessionId
        ? (batch) =>
            batch.add(
              db
                .select()
                .from(q)
                .where(and(eq(q.id, sessionId), eq(q.companyId, companyId))),
            )
        : undefined,
    });
    const { more, ...page } = loaded;
    return { ...page, session: more?.[0] };
  },
  run: async (ctx, actor, input, loaded) => {
    const path = requirePagePath(input.path);
    checkExpectedHash(path, loaded.page, input.expectedHash);
    let contents = input.contents ?? null;
    const extra: Statement[] = [];
    const { session } = loaded;
    if (input.querySessionId) {
      if (!session) throw notFound("Query session not found");
      if (contents === null) {
        const answer = input.answer ?? session.answer;
        if (!answer) throw conflict(`The query session has no answer yet (status ${session.status})`, { querySessionId: session.id, status: session.status });
        contents = answerPage(input.title?.trim() || session.title, session.question, answer);
      }
      const q = schema.wikiQuerySessions;
      extra.push(ctx.db.update(q).set({ status: "filed", filedPath: path, updatedAt: ctx.now }).where(eq(q.id, session.id)));
    } else if (contents === null) {
      if (!input.answer) throw badRequest("file-as-page needs contents, an answer, or a querySessionId whose answer is filed");
      contents = answerPage(input.title?.trim() || path.split("/").pop()!.replace(/\.md$/, ""), null, input.answer);
    }
    const result = await writePageContents(ctx, actor, input, loaded, path, contents, {
      operationType: "file_as_page",
      title: input.title,
      summary: session ? `Filed query session ${session.id}` : "Filed as page",
      details: session ? { querySessionId: session.id } : {},
      extra,
    });
    return { path: result.path, hash: result.hash, previousHash: result.previousHash, page: result.page, operationId: result.operationId };
  },
});

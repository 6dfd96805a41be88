// Issues: list/create per company, detail/update, checkout/release, comments, activity, runs,
// heartbeat context, labels, and a board user's read / inbox-archive marks.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { and, asc, desc, eq, gt, or, sql } from "drizzle-orm";
import type { AppEnv } from "../env";
import { createRouter } from "../http/router";
import { createDb, schema } from "../db/client";
import { requireActor, requireBoard, requireCompanyAccess, requireEntityAccess } from "../http/access";
import { badRequest, notFound } from "../domain/errors";
import { runCompanyCommand } from "../company/client";
import { attachmentSummariesForIssue } from "../domain/attachments/summaries";
import { planReviewContextForIssue } from "../domain/documents/summaries";
import { activityView } from "../domain/activity/view";
import { ActivitySchema } from "../schemas/activity";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import {
  CheckoutSchema,
  CommentIdParam,
  CommentListQuery,
  CommentSchema,
  CreateCommentSchema,
  CreateIssueSchema,
  CreateLabelSchema,
  HeartbeatContextSchema,
  IssueDetailSchema,
  IssueIdParam,
  IssueListQuery,
  IssueRunSchema,
  IssueSchema,
  IssueSummarySchema,
  IssueUserStateSchema,
  LabelSchema,
  RunIdParam,
  UpdateIssueSchema,
} from "../schemas/issues";
import { findIssue, issueViewsFor } from "../domain/issues/load";
import { listIssues } from "../domain/issues/list";
import { buildIssueDetail, loadAncestors, loadProjectAndGoal } from "../domain/issues/detail";
import { commentView, issueSummary, labelView } from "../domain/issues/view";
import { effectiveRunStatus, runLeaseMs } from "../domain/runs/lease";
import { addComment, createIssue, createLabel, setIssueUserState, updateIssue } from "../domain/issues/commands";
import { checkoutIssue, releaseIssue } from "../domain/issues/checkout";

const tags = ["Issues"];
export const issuesRouter = createRouter();

/** The issue behind `{issueId}` (UUID or identifier) if the caller may reach its company; 401, then 404. */
async function issueFor(c: Context<AppEnv>, issueId: string) {
  requireActor(c);
  const issue = await findIssue(createDb(c.env.DB), issueId);
  requireEntityAccess(c, issue?.companyId, "Issue");
  return issue!;
}

/** `me` in a user filter means the board caller; agents cannot use it. */
function userFilter(c: Context<AppEnv>, name: string, value: string | undefined) {
  if (value !== "me") return value;
  const actor = c.get("actor");
  if (actor.type !== "board") throw badRequest(`${name}=me is only available to board callers`);
  return actor.userId;
}

issuesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/issues",
    tags,
    summary: "List issues",
    description:
      "Filters combine with AND. `status` takes one status or a comma list. `participantAgentId` matches the assignee, creator or a commenter. " +
      "`me` in assigneeUserId, touchedByUserId, inboxArchivedByUserId or unreadForUserId means the board caller (400 for agents). " +
      "Hidden issues are left out; routine execution issues (originKind `routine_execution`) are left out unless includeRoutineExecutions=true or originKind/originId is given. " +
      "Order: priority (critical, high, medium, low), then latest updatedAt, then id. With `q`: best match first — title starts with > title contains > " +
      "identifier starts with > identifier contains > a comment contains > description contains (case-insensitive), ties by priority, latest activity, id; non-matching issues are left out. " +
      "`limit`: positive integer, default and maximum 500 (larger values are capped).",
    request: { params: CompanyIdParam, query: IssueListQuery },
    responses: { 200: jsonContent(z.array(IssueSchema), "Issues"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const query = c.req.valid("query");
    await requireCompanyAccess(c, companyId);
    const statuses = query.status
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const allowed = IssueSchema.shape.status.options as readonly string[];
    const unknown = statuses?.filter((s) => !allowed.includes(s)) ?? [];
    if (unknown.length) throw badRequest(`Unknown status ${unknown.join(", ")}; expected one of ${allowed.join(", ")}`);
    const db = createDb(c.env.DB);
    const rows = await listIssues(db, companyId, {
      ...query,
      statuses,
      assigneeUserId: userFilter(c, "assigneeUserId", query.assigneeUserId),
      touchedByUserId: userFilter(c, "touchedByUserId", query.touchedByUserId),
      inboxArchivedByUserId: userFilter(c, "inboxArchivedByUserId", query.inboxArchivedByUserId),
      unreadForUserId: userFilter(c, "unreadForUserId", query.unreadForUserId),
      includeRoutineExecutions: query.includeRoutineExecutions === "true",
      q: query.q || undefined,
    });
    return c.json(await issueViewsFor(db, rows), 200);
  },
);

issuesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/issues",
    tags,
    summary: "Create an issue",
    description:
      "Identifier `<PREFIX>-<n>` comes from the company's counter (allocated serially in the company's Durable Object: no gaps, no duplicates). " +
      "Defaults: status `backlog`, priority `medium`, originKind `manual`. parentId, blockedByIssueIds (UUIDs or identifiers), labelIds, projectId, goalId and " +
      "inheritExecutionWorkspaceFromIssueId must belong to the company (422 otherwise). Assignee fields pass the task-assignment authorization " +
      "(403 with details.reason). Goal: the given goal, else the project's goal, else (no project) the company default goal.",
    request: { params: CompanyIdParam, body: jsonBody(CreateIssueSchema) },
    responses: { 201: jsonContent(IssueSchema, "The issue"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const issue = await runCompanyCommand(c.env, companyId, createIssue, c.get("actor"), c.req.valid("json"));
    return c.json(issue, 201);
  },
);

issuesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/issues/{issueId}",
    tags,
    summary: "Issue detail with related objects (UUID or identifier)",
    description:
      "Adds project, goal, ancestors (parent first), blockedBy, blocks, mentionedProjects (company projects whose name or urlKey appears as a whole word in the description), " +
      "planDocument, documentSummaries, legacyPlanDocument, currentExecutionWorkspace and workProducts.",
    request: { params: IssueIdParam },
    responses: { 200: jsonContent(IssueDetailSchema, "The issue"), ...errors(401, 404) },
  }),
  async (c) => {
    const issue = await issueFor(c, c.req.valid("param").issueId);
    return c.json(await buildIssueDetail(createDb(c.env.DB), issue), 200);
  },
);

issuesRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/issues/{issueId}",
    tags,
    summary: "Update an issue",
    description:
      "Any create field, plus comment (markdown, added with the update), reopen (with a comment: done/cancelled → todo unless status is given), " +
      "interrupt (board only, only with a comment: cancels the issue's live runs) and hiddenAt (ISO time hides, null unhides). " +
      "blockedByIssueIds replaces the set: same company, no self-block, no cycle (422). Status changes stamp startedAt/completedAt/cancelledAt; " +
      "leaving in_progress or changing the assignee agent ends the checkout. Moving to done wakes assignees of issues whose last open blocker it was. " +
      "An agent updating an in_progress issue needs a run id (401) and, when the issue is checked out, must be the holding run (409 `Issue run ownership conflict`).",
    request: { params: IssueIdParam, body: jsonBody(UpdateIssueSchema) },
    responses: { 200: jsonContent(IssueSchema, "The updated issue"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const issue = await issueFor(c, c.req.valid("param").issueId);
    const updated = await runCompanyCommand(c.env, issue.companyId, updateIssue, c.get("actor"), {
      issueId: issue.id,
      body: c.req.valid("json"),
    });
    return c.json(updated, 200);
  },
);

issuesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/issues/{issueId}/checkout",
    tags,
    summary: "Check out an issue (agents, as themselves)",
    description:
      "The caller must be the agent named by agentId (403 otherwise, board callers included) and send a run id (X-Service-Run-Id or the JWT's run_id; 401 without). " +
      "The issue's status must be in expectedStatuses and its project not paused (409). Sets in_progress, the assignee and checkoutRunId. " +
      "Idempotent for the same agent and run. A lock whose run finished, failed, was cancelled, timed out (including a live run idle past the run lease) or is missing " +
      "is adopted by the same agent when expectedStatuses includes in_progress. Otherwise 409 `Issue checkout conflict` with details { issueId, status, assigneeAgentId, checkoutRunId }.",
    request: { params: IssueIdParam, body: jsonBody(CheckoutSchema) },
    responses: { 200: jsonContent(IssueSchema, "The checked-out issue"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const issue = await issueFor(c, c.req.valid("param").issueId);
    const body = c.req.valid("json");
    const result = await runCompanyCommand(c.env, issue.companyId, checkoutIssue, c.get("actor"), { issueId: issue.id, ...body });
    return c.json(result, 200);
  },
);

issuesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/issues/{issueId}/release",
    tags,
    summary: "Release a checked-out issue",
    description:
      "Board callers, or the assignee agent from its current checkout run (another run: 409 `Issue run ownership conflict`; another agent: 403). " +
      "The issue goes back to todo; the assignee agent, checkoutRunId and every other lock field are cleared in one statement; assigneeUserId is kept. " +
      "An issue that is not checked out gives 409.",
    request: { params: IssueIdParam },
    responses: { 200: jsonContent(IssueSchema, "The released issue"), ...errors(401, 403, 404, 409) },
  }),
  async (c) => {
    const issue = await issueFor(c, c.req.valid("param").issueId);
    const result = await runCompanyCommand(c.env, issue.companyId, releaseIssue, c.get("actor"), { issueId: issue.id });
    return c.json(result, 200);
  },
);

issuesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/issues/{issueId}/comments",
    tags,
    summary: "Comments of an issue",
    description:
      "`after` (ISO time) or `afterCommentId` keep only comments newer than the cursor; `order` asc (default, oldest first) or desc; `limit` 1–500 (default 100), applied after ordering.",
    request: { params: IssueIdParam, query: CommentListQuery },
    responses: { 200: jsonContent(z.array(CommentSchema), "Comments"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    const issue = await issueFor(c, c.req.valid("param").issueId);
    const query = c.req.valid("query");
    const db = createDb(c.env.DB);
    const t = schema.issueComments;
    let cursor: ReturnType<typeof sql> | undefined;
    if (query.afterCommentId) {
      const anchor = await db
        .select({ createdAt: t.createdAt, rowid: sql<number>`rowid` })
        .from(t)
        .where(and(eq(t.id, query.afterCommentId), eq(t.issueId, issue.id)))
        .get();
      if (!anchor) throw notFound("Comment not found");
      cursor = sql`(${t.createdAt} > ${anchor.createdAt} OR (${t.createdAt} = ${anchor.createdAt} AND rowid > ${anchor.rowid}))`;
    }
    const order = query.order === "desc" ? [desc(t.createdAt), sql`rowid DESC`] : [asc(t.createdAt), sql`rowid ASC`];
    const rows = await db
      .select()
      .from(t)
      .where(and(eq(t.issueId, issue.id), query.after ? gt(t.createdAt, new Date(query.after).toISOString()) : undefined, cursor))
      .orderBy(...order)
      .limit(query.limit ?? 100);
    return c.json(rows.map(commentView), 200);
  },
);

issuesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/issues/{issueId}/comments/{commentId}",
    tags,
    summary: "One comment of an issue",
    request: { params: CommentIdParam },
    responses: { 200: jsonContent(CommentSchema, "The comment"), ...errors(401, 404) },
  }),
  async (c) => {
    const { issueId, commentId } = c.req.valid("param");
    const issue = await issueFor(c, issueId);
    const row = await createDb(c.env.DB).query.issueComments.findFirst({
      where: and(eq(schema.issueComments.id, commentId), eq(schema.issueComments.issueId, issue.id)),
    });
    if (!row) throw notFound("Comment not found");
    return c.json(commentView(row), 200);
  },
);

issuesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/issues/{issueId}/comments",
    tags,
    summary: "Comment on an issue (open or closed)",
    description:
      "body: markdown. reopen: a done/cancelled issue goes back to todo. interrupt: board only — cancels the issue's live runs. " +
      "Wakes the assignee agent (reason `comment`, not when the issue stays closed) and every `@AgentName` mentioned (reason `mention`, case-insensitive exact names, multi-word included); " +
      "an agent's own comment never wakes itself. The assignee agent commenting on its checked-out issue must do so from the holding run (409 otherwise); agents need a run id on in_progress issues (401).",
    request: { params: IssueIdParam, body: jsonBody(CreateCommentSchema) },
    responses: { 201: jsonContent(CommentSchema, "The comment"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const issue = await issueFor(c, c.req.valid("param").issueId);
    const comment = await runCompanyCommand(c.env, issue.companyId, addComment, c.get("actor"), {
      issueId: issue.id,
      ...c.req.valid("json"),
    });
    return c.json(comment, 201);
  },
);

issuesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/issues/{issueId}/activity",
    tags: ["Activity"],
    summary: "Activity of one issue, newest first (UUID or identifier)",
    request: { params: IssueIdParam },
    responses: { 200: jsonContent(z.array(ActivitySchema), "Activity records"), ...errors(401, 404) },
  }),
  async (c) => {
    const issue = await issueFor(c, c.req.valid("param").issueId);
    const t = schema.activityLog;
    const rows = await createDb(c.env.DB)
      .select()
      .from(t)
      .where(and(eq(t.companyId, issue.companyId), eq(t.entityType, "issue"), eq(t.entityId, issue.id)))
      .orderBy(desc(t.createdAt), sql`rowid DESC`);
    return c.json(rows.map(activityView), 200);
  },
);

issuesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/issues/{issueId}/runs",
    tags: ["Activity"],
    summary: "Heartbeat runs that touched the issue (checked it out, created, updated or commented on it), newest first",
    description: "A live run idle longer than the run lease is reported with status `timed_out`.",
    request: { params: IssueIdParam },
    responses: { 200: jsonContent(z.array(IssueRunSchema), "Runs"), ...errors(401, 404) },
  }),
  async (c) => {
    const issue = await issueFor(c, c.req.valid("param").issueId);
    const r = schema.heartbeatRuns;
    const rows = await createDb(c.env.DB)
      .select()
      .from(r)
      .where(
        and(
          eq(r.companyId, issue.companyId),
          or(sql`${r.id} IN (SELECT run_id FROM issue_run_links WHERE issue_id = ${issue.id})`, eq(r.id, issue.checkoutRunId ?? "")),
        ),
      )
      .orderBy(desc(r.createdAt), desc(r.id));
    const now = new Date().toISOString();
    const lease = runLeaseMs(c.env);
    return c.json(
      rows.map((run) => ({
        runId: run.id,
        status: effectiveRunStatus(run, now, lease),
        agentId: run.agentId,
        adapterType: run.adapterType,
        startedAt: run.startedAt ?? null,
        finishedAt: run.finishedAt ?? null,
        createdAt: run.createdAt,
        invocationSource: run.invocationSource,
        usageJson: run.usageJson ?? null,
        resultJson: run.resultJson ?? null,
        logBytes: run.logBytes,
      })),
      200,
    );
  },
);

issuesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/heartbeat-runs/{runId}/issues",
    tags: ["Activity"],
    summary: "Compact summaries of the issues a run touched (empty array if the run does not exist)",
    description: "A run of a company the caller cannot reach is reported as missing (404).",
    request: { params: RunIdParam },
    responses: { 200: jsonContent(z.array(IssueSummarySchema), "Issues"), ...errors(401, 404) },
  }),
  async (c) => {
    requireActor(c);
    const { runId } = c.req.valid("param");
    const db = createDb(c.env.DB);
    const run = await db.query.heartbeatRuns.findFirst({ where: eq(schema.heartbeatRuns.id, runId) });
    if (!run) return c.json([], 200);
    requireEntityAccess(c, run.companyId, "Run");
    const t = schema.issues;
    const rows = await db
      .select()
      .from(t)
      .where(
        and(
          eq(t.companyId, run.companyId),
          or(eq(t.checkoutRunId, runId), sql`${t.id} IN (SELECT issue_id FROM issue_run_links WHERE run_id = ${runId})`),
        ),
      )
      .orderBy(asc(t.number));
    return c.json(rows.map(issueSummary), 200);
  },
);

issuesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/issues/{issueId}/heartbeat-context",
    tags,
    summary: "What an agent's heartbeat needs about an issue",
    description:
      "Reduced issue, ancestors, project and goal summaries, comment cursor metadata (total, latest comment id and time), the wake comment when " +
      "`wakeCommentId` is given (404 if it is not a comment of this issue), attachment summaries and planReviewContext (null until those features arrive).",
    request: { params: IssueIdParam, query: z.object({ wakeCommentId: z.string().max(100).optional() }) },
    responses: { 200: jsonContent(HeartbeatContextSchema, "Context"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    const issue = await issueFor(c, c.req.valid("param").issueId);
    const { wakeCommentId } = c.req.valid("query");
    const db = createDb(c.env.DB);
    const t = schema.issueComments;
    const [views, ancestors, related, counts, latest, wake, attachments, planReviewContext] = await Promise.all([
      issueViewsFor(db, [issue]),
      loadAncestors(db, issue),
      loadProjectAndGoal(db, issue),
      db.select({ n: sql<number>`COUNT(*)` }).from(t).where(eq(t.issueId, issue.id)).get(),
      db.select().from(t).where(eq(t.issueId, issue.id)).orderBy(desc(t.createdAt), sql`rowid DESC`).limit(1).get(),
      wakeCommentId ? db.query.issueComments.findFirst({ where: and(eq(t.id, wakeCommentId), eq(t.issueId, issue.id)) }) : undefined,
      attachmentSummariesForIssue(db, issue.id),
      planReviewContextForIssue(db, issue.id),
    ]);
    if (wakeCommentId && !wake) throw notFound("Wake comment not found on this issue");
    const view = views[0];
    return c.json(
      {
        issue: {
          id: view.id,
          identifier: view.identifier,
          title: view.title,
          description: view.description,
          status: view.status,
          priority: view.priority,
          projectId: view.projectId,
          goalId: view.goalId,
          parentId: view.parentId,
          assigneeAgentId: view.assigneeAgentId,
          assigneeUserId: view.assigneeUserId,
          checkoutRunId: view.checkoutRunId,
          blockedByIssueIds: view.blockedByIssueIds,
          labelIds: view.labelIds,
          updatedAt: view.updatedAt,
        },
        ancestors,
        ...related,
        commentCursor: { totalComments: Number(counts?.n ?? 0), latestCommentId: latest?.id ?? null, latestCommentAt: latest?.createdAt ?? null },
        wakeComment: wake ? commentView(wake) : null,
        attachments,
        planReviewContext,
      },
      200,
    );
  },
);

issuesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/labels",
    tags,
    summary: "Issue labels of the company, by name (extra route: labels are referenced by id in labelIds and the labelId filter)",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(LabelSchema), "Labels"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const rows = await createDb(c.env.DB).query.labels.findMany({
      where: eq(schema.labels.companyId, companyId),
      orderBy: asc(schema.labels.nameKey),
    });
    return c.json(rows.map(labelView), 200);
  },
);

issuesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/labels",
    tags,
    summary: "Create an issue label (extra route; names are unique per company regardless of case: 409)",
    request: { params: CompanyIdParam, body: jsonBody(CreateLabelSchema) },
    responses: { 201: jsonContent(LabelSchema, "The label"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const label = await runCompanyCommand(c.env, companyId, createLabel, c.get("actor"), c.req.valid("json"));
    return c.json(label, 201);
  },
);

const userStateRoutes = [
  { method: "post" as const, path: "/api/issues/{issueId}/read", mark: "read" as const, summary: "Mark the issue read for the board caller (extra route; drives unreadForUserId and touchedByUserId)" },
  { method: "post" as const, path: "/api/issues/{issueId}/inbox-archive", mark: "archive" as const, summary: "Archive the issue from the board caller's inbox (extra route; drives inboxArchivedByUserId)" },
  { method: "delete" as const, path: "/api/issues/{issueId}/inbox-archive", mark: "unarchive" as const, summary: "Take the issue back into the board caller's inbox (extra route)" },
];
for (const route of userStateRoutes) {
  issuesRouter.openapi(
    createRoute({
      method: route.method,
      path: route.path,
      tags,
      summary: route.summary,
      description: "Board callers only (agents get 403).",
      request: { params: IssueIdParam },
      responses: { 200: jsonContent(IssueUserStateSchema, "The caller's state for the issue"), ...errors(401, 403, 404) },
    }),
    async (c) => {
      const issue = await issueFor(c, c.req.valid("param").issueId);
      const actor = requireBoard(c);
      const state = await runCompanyCommand(c.env, issue.companyId, setIssueUserState, actor, {
        issueId: issue.id,
        userId: actor.userId,
        mark: route.mark,
      });
      return c.json(state, 200);
    },
  );
}

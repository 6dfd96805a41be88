// Issues: list/create per company, detail/update, and a board user's read / inbox-archive marks.
// Comments, checkout, activity and runs, and labels have their own modules in this folder.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { createRouter } from "../../http/router";
import { dbOf } from "../../http/db";
import { addCompanyAccessCheck, requireActor, requireBoard, requireEntityAccess } from "../../http/access";
import { ReadBatch } from "../../db/read-batch";
import { badRequest } from "../../domain/errors";
import { runCompanyCommand } from "../../company/client";
import { idempotencyOf } from "../../http/idempotency";
import { CompanyIdParam, errors, jsonBody, jsonContent, IdempotencyHeaders } from "../../schemas/common";
import { CreateIssueSchema, IssueDetailSchema, IssueIdParam, IssueListQuery, IssueSchema, IssueUserStateSchema, UpdateIssueSchema } from "../../schemas/issues";
import { addIssueListJsonRead } from "../../domain/issues/list";
import { loadIssueDetail } from "../../domain/issues/detail";
import { createIssue, setIssueUserState, updateIssue } from "../../domain/issues/commands";
import { issueFor, loadForIssue, loadInCompany } from "./guard";
import { rememberIssue, scopeToSeenIssue } from "../../http/seen-issues";

const tags = ["Issues"];
export const issuesRouter = createRouter();

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
    const statuses = query.status
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const allowed = IssueSchema.shape.status.options as readonly string[];
    const unknown = statuses?.filter((s) => !allowed.includes(s)) ?? [];
    if (unknown.length) throw badRequest(`Unknown status ${unknown.join(", ")}; expected one of ${allowed.join(", ")}`);
    const batch = new ReadBatch(dbOf(c));
    const access = addCompanyAccessCheck(c, batch, companyId);
    const issues = addIssueListJsonRead(batch, companyId, {
      ...query,
      statuses,
      assigneeUserId: userFilter(c, "assigneeUserId", query.assigneeUserId),
      touchedByUserId: userFilter(c, "touchedByUserId", query.touchedByUserId),
      inboxArchivedByUserId: userFilter(c, "inboxArchivedByUserId", query.inboxArchivedByUserId),
      unreadForUserId: userFilter(c, "unreadForUserId", query.unreadForUserId),
      includeRoutineExecutions: query.includeRoutineExecutions === "true",
      q: query.q || undefined,
    });
    await batch.run();
    access();
    // The views as one JSON text, made by SQLite (issueViewJson): answered as they are.
    return new Response(issues(), { status: 200, headers: { "content-type": "application/json" } }) as never;
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
    request: { params: CompanyIdParam, headers: IdempotencyHeaders, body: jsonBody(CreateIssueSchema) },
    responses: { 201: jsonContent(IssueSchema, "The issue"), ...errors(400, 401, 403, 404, 422) },
  }),

  async (c) => {
    const { companyId } = c.req.valid("param");
    const input = c.req.valid("json");
    const loaded = await loadInCompany(c, companyId, createIssue, input);
    const issue = rememberIssue(await runCompanyCommand(c.env, companyId, createIssue, c.get("actor"), input, loaded, idempotencyOf(c)));
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
    const ref = c.req.valid("param").issueId;
    scopeToSeenIssue(requireActor(c), ref);
    const loaded = await loadIssueDetail(dbOf(c), ref);
    requireEntityAccess(c, loaded?.issue.companyId, "Issue");
    rememberIssue(loaded!.issue);
    return c.json(loaded!.detail, 200);
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
    request: { params: IssueIdParam, headers: IdempotencyHeaders, body: jsonBody(UpdateIssueSchema) },
    responses: { 200: jsonContent(IssueSchema, "The updated issue"), ...errors(400, 401, 403, 404, 409, 422) },
  }),

  async (c) => {
    const body = c.req.valid("json");
    const { issue, input, loaded } = await loadForIssue(c, updateIssue, c.req.valid("param").issueId, (issueId) => ({ issueId, body }));
    const updated = await runCompanyCommand(c.env, issue.companyId, updateIssue, c.get("actor"), input, loaded, idempotencyOf(c));
    return c.json(updated, 200);
  },
);

const userStateRoutes = [
  {
    method: "post" as const,
    path: "/api/issues/{issueId}/read",
    mark: "read" as const,
    summary: "Mark the issue read for the board caller (extra route; drives unreadForUserId and touchedByUserId)",
  },
  {
    method: "post" as const,
    path: "/api/issues/{issueId}/inbox-archive",
    mark: "archive" as const,
    summary: "Archive the issue from the board caller's inbox (extra route; drives inboxArchivedByUserId)",
  },
  {
    method: "delete" as const,
    path: "/api/issues/{issueId}/inbox-archive",
    mark: "unarchive" as const,
    summary: "Take the issue back into the board caller's inbox (extra route)",
  },
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

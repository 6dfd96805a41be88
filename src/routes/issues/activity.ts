// What happened on an issue: its activity, the heartbeat runs that touched it (and the issues a
// run touched), and the context an agent's heartbeat needs about it.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../http/router";
import { onThisOrAnyShard } from "../../db/shards";
import { dbOf } from "../../http/db";
import { requireActor, requireEntityAccess } from "../../http/access";
import { ActivitySchema } from "../../schemas/activity";
import { errors, jsonContent } from "../../schemas/common";
import { HeartbeatContextSchema, IssueIdParam, IssueRunSchema, IssueSummarySchema, RunIdParam } from "../../schemas/issues";
import { listEntityActivity } from "../../domain/activity/queries";
import { findRun, issuesOfRun, runsOfIssue } from "../../domain/issues/queries";
import { heartbeatContext } from "../../domain/issues/agent-views";
import { runLeaseMs } from "../../domain/runs/lease";
import { issueFor } from "./guard";

const tags = ["Issues"];
export const issueActivityRouter = createRouter();

issueActivityRouter.openapi(
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
    return c.json(await listEntityActivity(dbOf(c), issue.companyId, "issue", issue.id), 200);
  },
);

issueActivityRouter.openapi(
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
    return c.json(await runsOfIssue(dbOf(c), issue, new Date().toISOString(), runLeaseMs(c.env)), 200);
  },
);

issueActivityRouter.openapi(
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
    const db = dbOf(c);
    const runId = c.req.valid("param").runId;
    // A run on another shard than the caller's is another company's (404), not a missing one.
    const run = await onThisOrAnyShard(c.env, () => findRun(db, runId));
    if (!run) return c.json([], 200);
    requireEntityAccess(c, run.companyId, "Run");
    return c.json(await issuesOfRun(db, run), 200);
  },
);

issueActivityRouter.openapi(
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
    return c.json(await heartbeatContext(dbOf(c), issue, c.req.valid("query").wakeCommentId), 200);
  },
);

// Agent-only views of issues: GET /api/agents/me/inbox-lite. Mounted before the agents router
// so that `/api/agents/{agentId}` does not shadow it.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../http/router";
import { dbOf } from "../../http/db";
import { requireAgent } from "../../http/access";
import { errors, jsonContent } from "../../schemas/common";
import { InboxLiteItemSchema } from "../../schemas/issues";
import { agentInboxLite } from "../../domain/issues/agent-views";
import { runLeaseMs } from "../../domain/runs/lease";

export const issuesAgentViewsRouter = createRouter();

issuesAgentViewsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/agents/me/inbox-lite",
    tags: ["Agents", "Issues"],
    summary: "The calling agent's open assigned issues, compact (agent only)",
    description:
      "Issues assigned to the calling agent that are not done or cancelled (hidden ones left out), by priority then latest update. " +
      "activeRun: the live run holding the issue's checkout (null if none or stale). dependencyReady is false while any blocker is not done or cancelled; " +
      "unresolvedBlockerIssueIds lists those blockers.",
    responses: { 200: jsonContent(z.array(InboxLiteItemSchema), "Inbox items"), ...errors(401, 403) },
  }),
  async (c) => {
    const actor = requireAgent(c);
    return c.json(await agentInboxLite(dbOf(c), actor, new Date().toISOString(), runLeaseMs(c.env)), 200);
  },
);

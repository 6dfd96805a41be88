// The MCP tools: the daily operations as Model Context Protocol tools. Each tool is one call of
// this API's own HTTP route, made with the MCP caller's credentials — so authorization, company
// scoping, validation and errors are exactly the routes' (an agent key reaches only its company;
// board-only actions refuse agents; another company's ids are 403/404 as over HTTP).
import { z } from "zod";
import { McpToolServer, type ToolResult } from "./server";
import type { Actor } from "../actor";
import { ISSUE_PRIORITIES, ISSUE_STATUSES } from "../../db/schema/issues";

/** One request to this API as the MCP caller (the route layer supplies it). */
export type ApiCall = (method: string, path: string, body?: unknown, runId?: string) => Promise<{ status: number; body: unknown }>;

const enc = encodeURIComponent;

function result(response: { status: number; body: unknown }): ToolResult {
  const ok = response.status >= 200 && response.status < 300;
  const body = response.body as { error?: unknown; details?: unknown } | null;
  if (!ok) {
    const message = typeof body?.error === "string" ? body.error : `HTTP ${response.status}`;
    return {
      isError: true,
      content: [{ type: "text", text: `${message} (HTTP ${response.status})${body?.details ? `\n${JSON.stringify(body.details)}` : ""}` }],
    };
  }
  return { content: [{ type: "text", text: JSON.stringify(response.body, null, 2) }] };
}

/** The company a tool works in: the argument, else the agent's own company, else the board user's only company. */
function companyOf(actor: Actor, companyId: string | undefined): string | ToolResult {
  if (companyId) return companyId;
  if (actor.type === "agent") return actor.companyId;
  if (actor.type === "board" && actor.companyIds.length === 1) return actor.companyIds[0];
  return { isError: true, content: [{ type: "text", text: "companyId is required (this key reaches more than one company)" }] };
}

const companyArg = { companyId: z.string().optional().describe("Company id (defaults to the agent's company, or the board user's only company)") };
const issueArg = { issue: z.string().min(1).describe("Issue UUID or identifier such as ABC-12") };
const documentKey = z.string().min(1).max(64).describe("Document key, such as plan or report (lowercase letters, digits, - and _)");
const runArg = { runId: z.string().optional().describe("The run id, for agent API keys acting inside a run (run JWTs carry it)") };

export function buildMcpServer(actor: Actor, api: ApiCall): McpToolServer {
  const server = new McpToolServer({ name: "agent-control-plane", version: "0.1.0" });
  const inCompany = async (companyId: string | undefined, call: (companyId: string) => Promise<{ status: number; body: unknown }>) => {
    const company = companyOf(actor, companyId);
    return typeof company === "string" ? result(await call(company)) : company;
  };

  server.registerTool("whoami", { description: "Who this key is: the agent (agent keys) or the board user and their companies" }, async () =>
    result(actor.type === "agent" ? await api("GET", "/api/agents/me") : await api("GET", "/api/cli-auth/me")),
  );
  server.registerTool(
    "list_issues",
    {
      description: "List a company's issues (filters: status, assignee, search)",
      inputSchema: {
        ...companyArg,
        status: z
          .string()
          .optional()
          .describe(`Comma-separated statuses (${ISSUE_STATUSES.join(", ")})`),
        assigneeAgentId: z.string().optional(),
        q: z.string().optional(),
        limit: z.number().int().min(1).max(500).optional(),
      },
    },
    async ({ companyId, status, assigneeAgentId, q, limit }) =>
      inCompany(companyId, (id) => {
        const query = new URLSearchParams();
        if (status) query.set("status", status);
        if (assigneeAgentId) query.set("assigneeAgentId", assigneeAgentId);
        if (q) query.set("q", q);
        if (limit) query.set("limit", String(limit));
        return api("GET", `/api/companies/${enc(id)}/issues${query.size ? `?${query}` : ""}`);
      }),
  );
  server.registerTool("show_issue", { description: "An issue with its related objects", inputSchema: issueArg }, async ({ issue }) =>
    result(await api("GET", `/api/issues/${enc(issue)}`)),
  );
  server.registerTool(
    "create_issue",
    {
      description: "Create an issue",
      inputSchema: {
        ...companyArg,
        title: z.string().min(1),
        description: z.string().optional(),
        assigneeAgentId: z.string().optional(),
        priority: z.enum(ISSUE_PRIORITIES).optional(),
        status: z.enum(ISSUE_STATUSES).optional(),
        parentId: z.string().optional(),
      },
    },
    async ({ companyId, ...body }) => inCompany(companyId, (id) => api("POST", `/api/companies/${enc(id)}/issues`, body)),
  );
  server.registerTool(
    "update_issue",
    {
      description: "Change an issue's status, priority, assignee or title",
      inputSchema: {
        ...issueArg,
        ...runArg,
        status: z.enum(ISSUE_STATUSES).optional(),
        priority: z.enum(ISSUE_PRIORITIES).optional(),
        assigneeAgentId: z.string().nullable().optional(),
        title: z.string().min(1).optional(),
      },
    },
    async ({ issue, runId, ...body }) => result(await api("PATCH", `/api/issues/${enc(issue)}`, body, runId)),
  );
  server.registerTool(
    "comment_issue",
    { description: "Comment on an issue", inputSchema: { ...issueArg, ...runArg, body: z.string().min(1) } },
    async ({ issue, runId, body }) => result(await api("POST", `/api/issues/${enc(issue)}/comments`, { body }, runId)),
  );
  server.registerTool(
    "checkout_issue",
    {
      description: "Check out an issue for the calling agent (agent keys; needs the run id)",
      inputSchema: {
        ...issueArg,
        ...runArg,
        expectedStatuses: z.array(z.enum(ISSUE_STATUSES)).optional().describe("Statuses the issue may be in (default todo, backlog, blocked)"),
      },
    },
    async ({ issue, runId, expectedStatuses }) => {
      if (actor.type !== "agent")
        return { isError: true, content: [{ type: "text", text: "checkout_issue is for agent keys: an agent checks out issues as itself" }] };
      return result(
        await api(
          "POST",
          `/api/issues/${enc(issue)}/checkout`,
          { agentId: actor.agentId, expectedStatuses: expectedStatuses ?? ["todo", "backlog", "blocked"] },
          runId,
        ),
      );
    },
  );
  server.registerTool(
    "release_issue",
    { description: "Release an issue the caller has checked out", inputSchema: { ...issueArg, ...runArg } },
    async ({ issue, runId }) => result(await api("POST", `/api/issues/${enc(issue)}/release`, {}, runId)),
  );
  server.registerTool(
    "my_assignments",
    { description: "Your open work (agent keys): issues assigned to you that are not done or cancelled, most important first" },
    async () => {
      if (actor.type !== "agent") return { isError: true, content: [{ type: "text", text: "my_assignments is for agent keys" }] };
      return result(await api("GET", "/api/agents/me/inbox-lite"));
    },
  );
  server.registerTool(
    "list_comments",
    {
      description: "An issue's comments, oldest first",
      inputSchema: { ...issueArg, afterCommentId: z.string().optional().describe("Only comments after this comment id") },
    },
    async ({ issue, afterCommentId }) =>
      result(await api("GET", `/api/issues/${enc(issue)}/comments${afterCommentId ? `?afterCommentId=${enc(afterCommentId)}` : ""}`)),
  );
  server.registerTool(
    "read_document",
    { description: "An issue's document (markdown) with its latestRevisionId", inputSchema: { ...issueArg, key: documentKey } },
    async ({ issue, key }) => result(await api("GET", `/api/issues/${enc(issue)}/documents/${enc(key)}`)),
  );
  server.registerTool(
    "write_document",
    {
      description:
        "Create or update an issue's document (markdown; long output belongs here, not in comments). To update, pass the document's current latestRevisionId as baseRevisionId (a 409 means it changed: read it again)",
      inputSchema: {
        ...issueArg,
        ...runArg,
        key: documentKey,
        body: z.string().describe("The whole document, markdown"),
        title: z.string().max(200).optional(),
        baseRevisionId: z.string().optional().describe("Omit to create; to update, the current latestRevisionId"),
        changeSummary: z.string().max(1000).optional(),
      },
    },
    async ({ issue, runId, key, ...body }) =>
      result(await api("PUT", `/api/issues/${enc(issue)}/documents/${enc(key)}`, { format: "markdown", ...body }, runId)),
  );
  server.registerTool(
    "ask_question",
    {
      description:
        "Ask a person a question on an issue assigned to you (a decision, missing information). It waits in the board's inbox; the answer is posted on the issue and wakes you. With blocksIssue the issue is blocked until then.",
      inputSchema: {
        ...issueArg,
        ...runArg,
        prompt: z.string().min(1).max(4000).describe("The question"),
        options: z
          .array(z.object({ id: z.string().min(1).max(64), label: z.string().min(1).max(200) }))
          .max(20)
          .optional()
          .describe("Choices to answer with"),
        allowFreeText: z.boolean().optional().describe("Whether a written answer is accepted (default: only without options)"),
        askedOfUserId: z.string().optional().describe("A member's user id to ask (default: the board)"),
        blocksIssue: z.boolean().optional().describe("Block the issue until the answer"),
      },
    },
    async ({ issue, runId, ...body }) => result(await api("POST", `/api/issues/${enc(issue)}/questions`, body, runId)),
  );
  server.registerTool(
    "request_approval",
    {
      description: "Ask the board to approve something (spending, a risky change, a strategy): it waits in the board's inbox; the decision wakes you",
      inputSchema: {
        ...companyArg,
        title: z.string().min(1).max(200),
        summary: z.string().min(1).describe("What you want to do and why"),
        recommendedAction: z.string().optional(),
        risks: z.array(z.string()).optional(),
        issueIds: z.array(z.string()).optional().describe("Issues (UUIDs) the request is about"),
      },
    },
    async ({ companyId, issueIds, ...payload }) =>
      inCompany(companyId, (id) =>
        api("POST", `/api/companies/${enc(id)}/approvals`, { type: "request_board_approval", payload, ...(issueIds?.length ? { issueIds } : {}) }),
      ),
  );
  server.registerTool(
    "list_approvals",
    {
      description: "A company's approvals",
      inputSchema: { ...companyArg, status: z.string().optional().describe("pending, revision_requested, approved, rejected, cancelled") },
    },
    async ({ companyId, status }) => inCompany(companyId, (id) => api("GET", `/api/companies/${enc(id)}/approvals${status ? `?status=${enc(status)}` : ""}`)),
  );
  server.registerTool(
    "decide_approval",
    {
      description: "Approve or reject a pending approval (board keys)",
      inputSchema: { approvalId: z.string().min(1), decision: z.enum(["approve", "reject"]), note: z.string().optional() },
    },
    async ({ approvalId, decision, note }) => result(await api("POST", `/api/approvals/${enc(approvalId)}/${decision}`, note ? { decisionNote: note } : {})),
  );
  server.registerTool("costs_summary", { description: "A company's spend against its monthly budget", inputSchema: { ...companyArg } }, async ({ companyId }) =>
    inCompany(companyId, (id) => api("GET", `/api/companies/${enc(id)}/costs/summary`)),
  );
  return server;
}

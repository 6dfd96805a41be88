// /mcp through the MCP SDK's own client (streamable HTTP) against the Worker's fetch: tools listed,
// called with board and agent keys, and refused across companies exactly like the HTTP routes.
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { AUTHENTICATED, call, post, unique } from "../helpers/api";
import { agentJwt, boardUser, createCompany, insertAgentKey, insertApproval } from "../helpers/fixtures";

const authenticatedFetch = async (input: string | URL | Request, init?: RequestInit) => {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(input, init) as Parameters<typeof worker.fetch>[0], { ...env, ...AUTHENTICATED } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
};

async function mcpClient(token: string) {
  const client = new Client({ name: "test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    fetch: authenticatedFetch,
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

const text = (result: any) => result.content[0].text as string;
const data = (result: any) => {
  expect(result.isError, text(result)).toBeFalsy();
  return JSON.parse(text(result));
};

describe("/mcp", () => {
  it("refuses callers without a key (401) and GET (405)", async () => {
    const noKey = await call("POST", "/mcp", { body: { jsonrpc: "2.0", id: 1, method: "tools/list" }, env: AUTHENTICATED });
    expect(noKey.status).toBe(401);
    expect(noKey.body.error).toMatch(/Authentication required/);
    const owner = await boardUser((await createCompany()).id);
    const get = await call("GET", "/mcp", { token: owner.token, env: AUTHENTICATED });
    expect(get.status).toBe(405);
  });

  it("a board key: tools listed; list, create, show and comment on issues; approvals; costs", async () => {
    const company = await createCompany({ budgetMonthlyCents: 5000 });
    const owner = await boardUser(company.id);
    const client = await mcpClient(owner.token);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(
      expect.arrayContaining([
        "whoami",
        "list_issues",
        "show_issue",
        "create_issue",
        "update_issue",
        "comment_issue",
        "checkout_issue",
        "release_issue",
        "list_approvals",
        "decide_approval",
        "costs_summary",
      ]),
    );

    const created = data(await client.callTool({ name: "create_issue", arguments: { title: "From MCP", priority: "high" } }));
    expect(created).toMatchObject({ title: "From MCP", priority: "high", companyId: company.id });
    const shown = data(await client.callTool({ name: "show_issue", arguments: { issue: created.identifier } }));
    expect(shown.id).toBe(created.id);
    const listed = data(await client.callTool({ name: "list_issues", arguments: { companyId: company.id } }));
    expect(listed.map((i: any) => i.id)).toEqual([created.id]);
    const comment = data(await client.callTool({ name: "comment_issue", arguments: { issue: created.id, body: "noted" } }));
    expect(comment.body).toBe("noted");
    expect(data(await client.callTool({ name: "costs_summary", arguments: {} }))).toMatchObject({ budgetCents: 5000, spendCents: 0 });

    const approvalId = await insertApproval(company.id);
    expect(data(await client.callTool({ name: "list_approvals", arguments: { status: "pending" } })).map((a: any) => a.id)).toEqual([approvalId]);
    expect(data(await client.callTool({ name: "decide_approval", arguments: { approvalId: approvalId, decision: "approve", note: "ok" } }))).toMatchObject({
      status: "approved",
    });
    const bad = await client.callTool({ name: "create_issue", arguments: { title: "" } });
    expect(bad.isError).toBe(true);
    await client.close();
  });

  it("an agent: checkout and release with its run token; board-only actions refused like the routes", async () => {
    const company = await createCompany();
    const agent = await post(`/api/companies/${company.id}/agents`, {
      name: unique("Agent"),
      adapterType: "http",
      adapterConfig: { url: `${env.FAKE_AGENT_URL}/agent/x` },
    });
    const issue = await post(`/api/companies/${company.id}/issues`, { title: "Agent work", status: "todo", assigneeAgentId: agent.body.id });
    const run = await post(`/api/agents/${agent.body.id}/wakeup`, { issueId: issue.body.id });
    const token = await agentJwt(agent.body.id, company.id, { runId: run.body.id });
    const client = await mcpClient(token);
    expect(data(await client.callTool({ name: "whoami", arguments: {} })).id).toBe(agent.body.id);
    const checkedOut = data(await client.callTool({ name: "checkout_issue", arguments: { issue: issue.body.identifier } }));
    expect(checkedOut).toMatchObject({ status: "in_progress", assigneeAgentId: agent.body.id });
    expect(data(await client.callTool({ name: "comment_issue", arguments: { issue: issue.body.id, body: "working" } })).authorAgentId).toBe(agent.body.id);
    expect(data(await client.callTool({ name: "release_issue", arguments: { issue: issue.body.id } })).checkoutRunId).toBeNull();
    const approvalId = await insertApproval(company.id);
    const refused = await client.callTool({ name: "decide_approval", arguments: { approvalId: approvalId, decision: "approve" } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/HTTP 403/);
    await client.close();
  });

  it("refused across companies: another company's keys reach nothing of this one", async () => {
    const company = await createCompany();
    const issue = await post(`/api/companies/${company.id}/issues`, { title: "Secret plans" });
    const other = await createCompany();
    const stranger = await boardUser(other.id);
    const otherAgent = await post(`/api/companies/${other.id}/agents`, {
      name: unique("Agent"),
      adapterType: "http",
      adapterConfig: { url: `${env.FAKE_AGENT_URL}/agent/x` },
    });
    const agentKey = await insertAgentKey(otherAgent.body.id, other.id);
    for (const token of [stranger.token, agentKey.token]) {
      const client = await mcpClient(token);
      const list = await client.callTool({ name: "list_issues", arguments: { companyId: company.id } });
      expect(list.isError).toBe(true);
      expect(text(list)).toMatch(/HTTP 403/);
      const show = await client.callTool({ name: "show_issue", arguments: { issue: issue.body.id } });
      expect(show.isError).toBe(true);
      expect(text(show)).toMatch(/HTTP 404/);
      const create = await client.callTool({ name: "create_issue", arguments: { companyId: company.id, title: "Injected" } });
      expect(create.isError).toBe(true);
      const comment = await client.callTool({ name: "comment_issue", arguments: { issue: issue.body.id, body: "hi" } });
      expect(comment.isError).toBe(true);
      await client.close();
    }
    // Without companyId, the stranger's tools act in their own company only.
    const client = await mcpClient(stranger.token);
    expect(data(await client.callTool({ name: "list_issues", arguments: {} }))).toEqual([]);
    await client.close();
  });
});

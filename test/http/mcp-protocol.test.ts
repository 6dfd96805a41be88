// /mcp at the wire: what the SDK client never sends (bad media type, bad JSON, unknown methods and
// protocol versions, notifications, batches) answered as the MCP streamable HTTP transport says,
// and the tools' input schemas as JSON Schema (src/domain/mcp/server.ts).
import { describe, expect, it } from "vitest";
import { AUTHENTICATED, call } from "../helpers/api";
import { boardUser, createCompany } from "../helpers/fixtures";

async function owner() {
  return (await boardUser((await createCompany()).id)).token;
}

const rpc = (token: string, body: unknown, headers: Record<string, string> = {}) => call("POST", "/mcp", { body, token, env: AUTHENTICATED, headers });

describe("/mcp protocol", () => {
  it("initialize negotiates the protocol version and announces tools", async () => {
    const token = await owner();
    const init = (protocolVersion: string) =>
      rpc(token, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    const known = await init("2025-06-18");
    expect(known.status).toBe(200);
    expect(known.body).toMatchObject({
      jsonrpc: "2.0",
      id: 1,
      result: { protocolVersion: "2025-06-18", capabilities: { tools: { listChanged: true } }, serverInfo: { name: "agent-control-plane" } },
    });
    expect((await init("1999-01-01")).body.result.protocolVersion).toBe("2025-11-25");
  });

  it("notifications get 202; unknown methods -32601; ping {}; a batch is answered in order", async () => {
    const token = await owner();
    const note = await rpc(token, { jsonrpc: "2.0", method: "notifications/initialized" });
    expect(note.status).toBe(202);
    expect(note.text).toBe("");
    const unknown = await rpc(token, { jsonrpc: "2.0", id: "u", method: "resources/list" });
    expect(unknown.body).toEqual({ jsonrpc: "2.0", id: "u", error: { code: -32601, message: "Method not found" } });
    const batch = await rpc(token, [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 0 } },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: {} },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.body[0]).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(batch.body[1]).toMatchObject({ jsonrpc: "2.0", id: 2, error: { code: -32602 } });
    expect(batch.body).toHaveLength(2);
  });

  it("refuses a non-JSON body (415), invalid JSON and non-JSON-RPC messages (400) and unknown protocol versions (400)", async () => {
    const token = await owner();
    const text = await call("POST", "/mcp", { rawBody: "{}", token, env: AUTHENTICATED, headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe(-32000);
    const bad = await call("POST", "/mcp", { rawBody: "{not json", token, env: AUTHENTICATED, headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    const notRpc = await rpc(token, { hello: "world" });
    expect(notRpc.status).toBe(400);
    expect(notRpc.body.error.code).toBe(-32700);
    const version = await rpc(token, { jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-protocol-version": "1999-01-01" });
    expect(version.status).toBe(400);
    expect(version.body.error.message).toMatch(/Unsupported protocol version/);
  });

  it("tools/list gives each tool's input as JSON Schema; bad arguments and unknown tools are tool errors", async () => {
    const token = await owner();
    const list = await rpc(token, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    const tools = list.body.result.tools as { name: string; inputSchema: any }[];
    const create = tools.find((t) => t.name === "create_issue")!;
    expect(create.inputSchema).toMatchObject({
      type: "object",
      required: ["title"],
      properties: { title: { type: "string", minLength: 1 }, priority: { enum: expect.arrayContaining(["high"]) } },
    });
    expect(tools.find((t) => t.name === "whoami")!.inputSchema).toEqual({ type: "object", properties: {} });

    const badArgs = await rpc(token, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "create_issue", arguments: { title: 5 } } });
    expect(badArgs.body.result.isError).toBe(true);
    expect(badArgs.body.result.content[0].text).toMatch(/Invalid arguments for tool create_issue: .* at title/);
    const missing = await rpc(token, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "no_such_tool", arguments: {} } });
    expect(missing.body.result).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringMatching(/Tool no_such_tool not found/) }] });
  });
});

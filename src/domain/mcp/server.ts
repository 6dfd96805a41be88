// A stateless Model Context Protocol server for streamable HTTP with JSON responses: the part of the
// protocol /mcp speaks (initialize, ping, tools/list, tools/call; notifications accepted). It answers
// as the MCP TypeScript SDK's McpServer + WebStandardStreamableHTTPServerTransport (stateless, JSON
// responses) did, without their ~300 KB of bundle (protocol schemas for every MCP feature, a zod v3
// copy, zod-to-json-schema, ajv) that a tool endpoint never uses. test/http/mcp.test.ts speaks to
// it through the SDK's own client.
import { z } from "zod";

/** What a tool answers (MCP CallToolResult, text content only). */
export type ToolResult = {
  content: { type: "text"; text: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

type ToolConfig<Shape extends z.ZodRawShape> = { title?: string; description: string; inputSchema?: Shape };
type Tool = { title?: string; description: string; input?: z.ZodObject; handler: (args: never) => ToolResult | Promise<ToolResult> };

/** Protocol revisions this server answers in (the SDK's list); an unknown one requested gets the latest. */
export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"] as const;
const MAX_BATCH = 100;

const JSONRPC = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603, server: -32000 } as const;

type Id = string | number;
const JsonRpcMessage = z.union([
  z.object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number().int()]),
    method: z.string(),
    params: z.record(z.string(), z.unknown()).optional(),
  }),
  z.object({ jsonrpc: z.literal("2.0"), method: z.string(), params: z.record(z.string(), z.unknown()).optional() }),
  z.object({ jsonrpc: z.literal("2.0"), id: z.union([z.string(), z.number().int()]), result: z.unknown() }),
  z.object({ jsonrpc: z.literal("2.0"), id: z.union([z.string(), z.number().int(), z.null()]), error: z.object({ code: z.number(), message: z.string() }) }),
]);
const CallToolParams = z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() });

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const httpError = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers: { "content-type": "application/json" } });

const toolError = (text: string): ToolResult => ({ content: [{ type: "text", text }], isError: true });

/** One issue per line, `message at a.b` when it has a path (as the SDK words input errors). */
const issuesText = (error: z.ZodError) => error.issues.map((i) => (i.path.length ? `${i.message} at ${i.path.join(".")}` : i.message)).join("\n");

export class McpToolServer {
  private readonly tools = new Map<string, Tool>();

  constructor(private readonly info: { name: string; version: string }) {}

  registerTool<Shape extends z.ZodRawShape>(
    name: string,
    config: ToolConfig<Shape>,
    handler: (args: z.output<z.ZodObject<Shape>>) => ToolResult | Promise<ToolResult>,
  ) {
    if (this.tools.has(name)) throw new Error(`Tool ${name} is already registered`);
    this.tools.set(name, { title: config.title, description: config.description, input: config.inputSchema && z.object(config.inputSchema), handler });
  }

  /** Answers one POST of JSON-RPC messages (a message or a batch). */
  async handle(request: Request): Promise<Response> {
    const type = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
    if (type !== "application/json") return httpError(415, JSONRPC.server, "Unsupported Media Type: Content-Type must be application/json");
    let raw: unknown;
    try {
      raw = JSON.parse(await request.text());
    } catch {
      return httpError(400, JSONRPC.parse, "Parse error: Invalid JSON");
    }
    if (Array.isArray(raw) && raw.length > MAX_BATCH)
      return httpError(400, JSONRPC.invalidRequest, `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`);
    const parsed = (Array.isArray(raw) ? raw : [raw]).map((m) => JsonRpcMessage.safeParse(m));
    if (parsed.some((p) => !p.success)) return httpError(400, JSONRPC.parse, "Parse error: Invalid JSON-RPC message");
    const messages = parsed.map((p) => p.data as { id?: Id | null; method?: string; params?: Record<string, unknown> });
    const initializing = messages.some((m) => m.method === "initialize" && m.id !== undefined);
    if (initializing && messages.length > 1) return httpError(400, JSONRPC.invalidRequest, "Invalid Request: Only one initialization request is allowed");
    const version = request.headers.get("mcp-protocol-version");
    if (!initializing && version !== null && !(PROTOCOL_VERSIONS as readonly string[]).includes(version))
      return httpError(400, JSONRPC.server, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${PROTOCOL_VERSIONS.join(", ")})`);

    // Notifications and responses need no answer; requests are answered in order.
    const requests = messages.filter((m): m is { id: Id; method: string; params?: Record<string, unknown> } => m.method !== undefined && m.id != null);
    if (requests.length === 0) return new Response(null, { status: 202 });
    const answers = await Promise.all(requests.map((m) => this.answer(m.id, m.method, m.params)));
    return Response.json(answers.length === 1 ? answers[0] : answers);
  }

  private async answer(id: Id, method: string, params: Record<string, unknown> | undefined) {
    try {
      return { jsonrpc: "2.0", id, result: await this.dispatch(method, params ?? {}) };
    } catch (err) {
      const code = err instanceof RpcError ? err.code : JSONRPC.internal;
      return { jsonrpc: "2.0", id, error: { code, message: (err as Error).message || "Internal error" } };
    }
  }

  private async dispatch(method: string, params: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case "initialize": {
        const requested = params.protocolVersion;
        const protocolVersion = PROTOCOL_VERSIONS.find((v) => v === requested) ?? PROTOCOL_VERSIONS[0];
        return { protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: this.info };
      }
      case "ping":
        return {};
      case "tools/list":
        return { tools: [...this.tools].map(([name, tool]) => this.describe(name, tool)) };
      case "tools/call": {
        const call = CallToolParams.safeParse(params);
        if (!call.success) throw new RpcError(JSONRPC.invalidParams, `Invalid params: ${issuesText(call.error)}`);
        return this.call(call.data.name, call.data.arguments);
      }
      default:
        throw new RpcError(JSONRPC.methodNotFound, "Method not found");
    }
  }

  private describe(name: string, tool: Tool, hidden: readonly string[] = []) {
    const omitted = tool.input ? hidden.filter((h) => h in tool.input!.shape) : [];
    const input = tool.input && omitted.length ? tool.input.omit(Object.fromEntries(omitted.map((h) => [h, true])) as Record<string, true>) : tool.input;
    const inputSchema = input ? z.toJSONSchema(input, { target: "draft-7", io: "input" }) : { type: "object", properties: {} };
    return { name, title: tool.title, description: tool.description, inputSchema };
  }

  /**
   * The tools as tools/list describes them (JSON Schema draft-7), for a caller that offers them to a
   * model itself (the edge agent's loop): `only` narrows the list, `hidden` arguments (what the
   * caller fills in, such as the run and the company) are left out of the schemas.
   */
  list(options: { only?: readonly string[] | null; hidden?: readonly string[] } = {}) {
    return [...this.tools].filter(([name]) => !options.only || options.only.includes(name)).map(([name, tool]) => this.describe(name, tool, options.hidden));
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** A tool's failures (unknown tool, bad arguments, a thrown error) are its result with isError, as in the SDK. */
  async call(name: string, args: Record<string, unknown> | undefined): Promise<ToolResult> {
    const tool = this.tools.get(name);
    if (!tool) return toolError(`MCP error ${JSONRPC.invalidParams}: Tool ${name} not found`);
    try {
      if (!tool.input) return await (tool.handler as () => ToolResult | Promise<ToolResult>)();
      const input = await tool.input.safeParseAsync(args ?? {});
      if (!input.success)
        return toolError(`MCP error ${JSONRPC.invalidParams}: Input validation error: Invalid arguments for tool ${name}: ${issuesText(input.error)}`);
      return await (tool.handler as (args: unknown) => ToolResult | Promise<ToolResult>)(input.data);
    } catch (err) {
      return toolError(err instanceof Error ? err.message : String(err));
    }
  }
}

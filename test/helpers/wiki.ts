// Knowledge-wiki test helpers: the plugin made ready (it is instance-wide: storage is shared by the
// http project's files), a company with an agent in a run, and the tool and route calls.
import { expect } from "vitest";
import { get, post, type ApiResponse, type CallOptions } from "./api";
import { agentWithKey, createCompany } from "./fixtures";

export const WIKI = "/api/plugins/knowledge-wiki/api";

/** Installs or enables the knowledge-wiki plugin as the local board (an instance admin). */
export async function ensureWikiReady() {
  const res = await get("/api/plugins/knowledge-wiki");
  if (res.status === 404) expect((await post("/api/plugins/install", { packageName: "knowledge-wiki" })).status).toBe(201);
  else if (res.body.status !== "ready") expect((await post("/api/plugins/knowledge-wiki/enable")).status).toBe(200);
  expect((await get("/api/plugins/knowledge-wiki")).body.status).toBe("ready");
}

export interface WikiCompany {
  company: { id: string; issuePrefix: string };
  agent: { id: string; token: string; name: string };
  runId: string;
  /** Runs `knowledge-wiki:<name>` as the agent in its run (companyId and wikiId filled in). */
  tool(name: string, parameters?: Record<string, unknown>, options?: CallOptions): Promise<ApiResponse>;
}

export async function wikiCompany(): Promise<WikiCompany> {
  const company = await createCompany();
  const agent = await agentWithKey(company.id);
  const runId = crypto.randomUUID();
  const tool = (name: string, parameters: Record<string, unknown> = {}, options: CallOptions = {}) =>
    post(
      "/api/plugins/tools/execute",
      {
        tool: `knowledge-wiki:${name}`,
        parameters: { companyId: company.id, wikiId: "default", ...parameters },
        runContext: { agentId: agent.id, runId, companyId: company.id },
      },
      { token: agent.token, runId, ...options },
    );
  return { company, agent, runId, tool };
}

/** A tool call that must succeed: its result's data. */
export async function toolData(w: WikiCompany, name: string, parameters: Record<string, unknown> = {}) {
  const res = await w.tool(name, parameters);
  if (res.status !== 200) throw new Error(`${name} failed: ${res.status} ${res.text}`);
  return res.body.result.data;
}

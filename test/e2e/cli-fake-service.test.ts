// The built CLI against a fake service (a local HTTP server answering the few routes each scenario
// needs, and recording the requests): what login prints when the service names a console approval
// page and when it does not, whoami's lines, tables with human headers and agent names, and
// `events tail` through a dropped stream.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually";
// @ts-expect-error plain JavaScript build module
import { buildCli } from "../../src/cli/build.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const cli = path.join(root, "dist/cli.cjs");
const configDir = mkdtempSync(path.join(tmpdir(), "acp-fake-"));
const companyId = "11111111-1111-4111-8111-111111111111";
const agentId = "22222222-2222-4222-8222-222222222222";

type Route = (req: IncomingMessage, url: URL) => unknown;
let routes: Record<string, Route | undefined> = {};
/** Routes that answer by themselves (streams). */
let rawRoutes: Record<string, ((req: IncomingMessage, res: ServerResponse) => void) | undefined> = {};
const seen: string[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? "/", "http://fake");
  const key = `${req.method} ${url.pathname}`;
  seen.push(key);
  const raw = rawRoutes[key];
  if (raw) return raw(req, res);
  const route = routes[key];
  const body = route ? route(req, url) : { error: `no fake for ${key}` };
  res.writeHead(route ? 200 : 404, { "content-type": "application/json" }).end(JSON.stringify(body));
});
let base = "";

function acp(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, ACP_CONFIG_DIR: configDir, ACP_URL: base, ACP_TOKEN: "", ACP_COMPANY: companyId };
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { env, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const me = (user: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  user,
  companyIds: [companyId],
  isInstanceAdmin: true,
  authSource: "local_implicit",
  keyId: null,
  ...extra,
});

function challengeRoutes(extra: Record<string, unknown>): Record<string, Route> {
  const challenge = {
    id: "33333333-3333-4333-8333-333333333333",
    userCode: "WXYZ-2345",
    status: "pending",
    clientName: "acp",
    keyName: "test",
    intervalSec: 1,
    verificationPath: "/api/cli-auth/challenges/33333333-3333-4333-8333-333333333333/approve",
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
    createdAt: new Date().toISOString(),
    pollSecret: "poll-secret",
    ...extra,
  };
  return {
    "POST /api/cli-auth/challenges": () => challenge,
    [`GET /api/cli-auth/challenges/${challenge.id}`]: () => ({
      ...challenge,
      status: "approved",
      boardApiKey: { id: "key-1", token: "svc_board_fake", expiresAt: challenge.expiresAt },
    }),
    "GET /api/cli-auth/me": () => me({ id: "local-board", name: "Local Board", email: "local-board@localhost" }, { authSource: "board_key", keyId: "key-1" }),
  };
}

describe("acp against a fake service", () => {
  beforeAll(async () => {
    await buildCli();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    rmSync(configDir, { recursive: true, force: true });
  });

  it("login prints the console's approval URL (resolved against the service) with the code when the challenge names one", async () => {
    routes = challengeRoutes({ approvalUrl: "/console/cli-auth/WXYZ-2345" });
    const login = await acp("login", "--name", "test");
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain(`Open ${base}/console/cli-auth/WXYZ-2345 to approve code WXYZ-2345`);
    expect(login.stderr).toContain("acp approve-login 33333333-3333-4333-8333-333333333333 WXYZ-2345");
    expect(login.stderr).not.toContain("curl -X POST");
    expect(login.stdout).toContain("Signed in as Local Board <local-board@localhost>");

    routes = challengeRoutes({ approvalUrl: "https://console.example.com/approve?code=WXYZ-2345" });
    expect((await acp("login", "--name", "test")).stderr).toContain("Open https://console.example.com/approve?code=WXYZ-2345 to approve code WXYZ-2345");
  });

  it("login without an approval URL prints the approve-login command and the curl fallback", async () => {
    routes = challengeRoutes({});
    const login = await acp("login", "--name", "test");
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).not.toContain("Open ");
    expect(login.stderr).toContain("a board user approves code WXYZ-2345");
    expect(login.stderr).toContain("acp approve-login 33333333-3333-4333-8333-333333333333 WXYZ-2345");
    expect(login.stderr).toContain(`curl -X POST ${base}/api/cli-auth/challenges/33333333-3333-4333-8333-333333333333/approve`);
  });

  it("whoami names the user (the id when the name is blank), the companies by name, and the auth source in words", async () => {
    routes = {
      "GET /api/cli-auth/me": () => me({ id: "local-board", name: "Local Board", email: "local-board@localhost" }),
      "GET /api/companies": () => [{ id: companyId, name: "Acme" }],
    };
    const whoami = await acp("whoami");
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.stdout).toBe("Local Board <local-board@localhost> (instance admin)\ncompanies: Acme\nauth: local mode (no sign-in needed)\n");

    routes["GET /api/cli-auth/me"] = () =>
      me({ id: "user-7", name: "  ", email: "ada@example.com" }, { isInstanceAdmin: false, authSource: "board_key", keyId: "key-9", companyIds: [] });
    expect((await acp("whoami")).stdout).toBe("user-7 <ada@example.com>\ncompanies: (none)\nauth: board key key-9\n");

    // --json is the API's answer as is, with no extra call for company names.
    routes["GET /api/cli-auth/me"] = () => me({ id: "local-board", name: "Local Board", email: "local-board@localhost" });
    seen.length = 0;
    expect(JSON.parse((await acp("whoami", "--json")).stdout)).toEqual(me({ id: "local-board", name: "Local Board", email: "local-board@localhost" }));
    expect(seen).toEqual(["GET /api/cli-auth/me"]);
  });

  it("issue list heads columns in words and shows agent names (one agents call); --json keeps the raw ids", async () => {
    const issues = [
      { id: "i-1", identifier: "ACM-1", title: "Ship it", status: "todo", priority: "high", assigneeAgentId: agentId },
      { id: "i-2", identifier: "ACM-2", title: "Unassigned", status: "backlog", priority: "medium", assigneeAgentId: null },
    ];
    routes = {
      [`GET /api/companies/${companyId}/issues`]: () => issues,
      [`GET /api/companies/${companyId}/agents`]: () => [{ id: agentId, name: "Builder" }],
    };
    seen.length = 0;
    const table = await acp("issue", "list");
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split("\n")).toEqual([
      "Issue  Title       Status   Priority  Assignee",
      "ACM-1  Ship it     todo     high      Builder",
      "ACM-2  Unassigned  backlog  medium",
      "",
    ]);
    expect(seen).toEqual([`GET /api/companies/${companyId}/issues`, `GET /api/companies/${companyId}/agents`]);

    seen.length = 0;
    expect(JSON.parse((await acp("issue", "list", "--json")).stdout)).toEqual(issues);
    expect(seen).toEqual([`GET /api/companies/${companyId}/issues`]);
  });

  it("events tail prints a line per event (agents by name), resumes with Last-Event-ID after a drop, and exits 0 on Ctrl-C; --json prints each event", async () => {
    const at = "2026-11-21T09:30:05.000Z";
    const event = (id: string, type: string, subject: { type: string; id: string }, data: Record<string, unknown>) => ({
      id,
      type,
      companyId,
      occurredAt: at,
      actor: { type: "user", id: "local-board" },
      subject,
      data,
    });
    const first = [
      event("e1", "agent.created", { type: "agent", id: "33333333-3333-4333-8333-333333333333" }, { name: "Hired Hand", role: "engineer", status: "idle" }),
      event("e2", "run.finished", { type: "run", id: "run-1" }, { agentId, status: "failed", errorCode: "timeout" }),
      event(
        "e3",
        "issue.updated",
        { type: "issue", id: "i-1" },
        { identifier: "ACM-1", changed: ["status", "description"], changes: { status: { from: "todo", to: "done" } } },
      ),
    ];
    const second = [
      event(
        "e4",
        "issue.assigned",
        { type: "issue", id: "i-1" },
        { identifier: "ACM-1", assigneeAgentId: "33333333-3333-4333-8333-333333333333", assigneeUserId: null },
      ),
    ];
    const frames = (events: unknown[]) => events.map((e: any) => `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
    const streamRequests: Array<{ types: string | null; lastEventId: string | undefined }> = [];
    rawRoutes = {
      [`GET /api/companies/${companyId}/events/stream`]: (req, res) => {
        streamRequests.push({
          types: new URL(req.url!, "http://fake").searchParams.get("types"),
          lastEventId: req.headers["last-event-id"] as string | undefined,
        });
        res.writeHead(200, { "content-type": "text/event-stream" });
        // The first connection drops after its events; the second stays open.
        if (streamRequests.length === 1) res.end(`: connected\nretry: 100\n\n${frames(first)}`);
        else res.write(`: connected\n\n${frames(second)}`);
      },
    };
    routes = { [`GET /api/companies/${companyId}/agents`]: () => [{ id: agentId, name: "Builder" }] };
    const follow = async (...args: string[]) => {
      const child = spawn(process.execPath, [cli, "events", "tail", ...args], {
        env: { ...process.env, ACP_CONFIG_DIR: configDir, ACP_URL: base, ACP_TOKEN: "", ACP_COMPANY: companyId },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      await eventually(() => stderr.includes("Reconnected, resuming after e3") && stdout.split("\n").length === 5, {
        timeoutMs: 10_000,
        what: `the resumed tail (stdout ${stdout}, stderr ${stderr})`,
      });
      child.kill("SIGINT");
      return { code: await exited, stdout, stderr };
    };

    const tail = await follow("--types", "issue.*,agent.*,run.*");
    expect(tail.code, tail.stderr).toBe(0);
    expect(tail.stdout.split("\n")).toEqual([
      "2026-11-21 09:30:05  agent.created         agent Hired Hand  engineer (idle)",
      "2026-11-21 09:30:05  run.finished          run run-1  Builder failed (timeout)",
      "2026-11-21 09:30:05  issue.updated         issue ACM-1  status: todo → done, description",
      // The agent created during the tail is known by name.
      "2026-11-21 09:30:05  issue.assigned        issue ACM-1  → Hired Hand",
      "",
    ]);
    expect(tail.stderr).toContain("Following events (issue.*,agent.*,run.*); Ctrl-C stops");
    expect(tail.stderr).toContain("Connection lost (the service closed the stream); reconnecting in 0.5 s (resuming after e3)");
    expect(streamRequests).toEqual([
      { types: "issue.*,agent.*,run.*", lastEventId: undefined },
      { types: "issue.*,agent.*,run.*", lastEventId: "e3" },
    ]);

    streamRequests.length = 0;
    seen.length = 0;
    const json = await follow("--json");
    expect(json.code, json.stderr).toBe(0);
    expect(
      json.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([...first, ...second]);
    // No names are looked up for JSON.
    expect(seen).not.toContain(`GET /api/companies/${companyId}/agents`);
    rawRoutes = {};
  });
});

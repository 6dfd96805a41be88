// The CLI in a scripted session against the real dev server: login through the device flow (the
// test approves the code), daily commands in --json mode with their output parsed, a bad command's
// exit code and message, and logout revoking the key; webhooks delivered to a receiver served by
// the test and `acp events tail` following the live stream; the knowledge wiki plugin's lifecycle.
import { execFile, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { devBase } from "./dev-server";
import { eventually } from "../helpers/eventually";

let base = "";
const root = path.resolve(import.meta.dirname, "../..");
const cli = path.join(root, "dist/cli.cjs");
const configDir = mkdtempSync(path.join(tmpdir(), "acp-cli-"));
const env = { ...process.env, ACP_CONFIG_DIR: configDir, ACP_URL: "", ACP_TOKEN: "", ACP_COMPANY: "" };

function acp(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function json(...args: string[]): Promise<any> {
  const result = await acp(...args, "--json");
  if (result.code !== 0) throw new Error(`acp ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

describe("acp CLI (scripted session against the dev server)", () => {
  beforeAll(async () => {
    base = await devBase();
  }, 120_000);

  it("login (device flow), daily commands in --json mode, errors, logout", async () => {
    // login: the CLI prints the code and waits; the test approves it as the (local) board.
    const login = spawn(process.execPath, [cli, "login", "--url", base, "--json", "--name", "e2e laptop"], { env });
    let stderr = "";
    let stdout = "";
    login.stderr.on("data", (d) => (stderr += d));
    login.stdout.on("data", (d) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => login.on("exit", resolve));
    await eventually(() => /approve-login \S+ \S+/.test(stderr), { timeoutMs: 10_000, what: "the approve-login hint" });
    const [, challengeId, userCode] = /approve-login (\S+) (\S+)/.exec(stderr)!;
    const approved = await fetch(`${base}/api/cli-auth/challenges/${challengeId}/approve`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userCode }),
    });
    expect(approved.status).toBe(200);
    expect(await exited).toBe(0);
    const signedIn = JSON.parse(stdout);
    expect(signedIn).toMatchObject({ signedIn: true, keyId: expect.any(String) });
    const configFile = path.join(configDir, "config.json");
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(configFile, "utf8"));
    expect(saved).toMatchObject({ url: base, keyId: signedIn.keyId });
    expect(saved.token).toMatch(/^svc_board_/);

    // The saved key goes only to the service it came from: another --url gets no Authorization header.
    const seen: Array<string | undefined> = [];
    const elsewhere = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "who are you" }));
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    const other = await acp("whoami", "--url", `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`);
    elsewhere.close();
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("who are you");
    expect(seen).toEqual([undefined]);

    const me = await json("whoami");
    expect(me).toMatchObject({ authSource: "board_key", keyId: signedIn.keyId });

    const company = await json("company", "create", `CLI Co ${Date.now()}`, "--budget", "10000");
    expect(JSON.parse(readFileSync(configFile, "utf8")).companyId).toBe(company.id);
    expect((await json("company", "list")).map((c: any) => c.id)).toContain(company.id);
    // Read by a person: the user's name, the companies by name, the key in words.
    const whoami = await acp("whoami");
    expect(whoami.stdout).toMatch(/^Local Board <local-board@localhost>\n/);
    expect(whoami.stdout).toContain(company.name);
    expect(whoami.stdout).toContain(`auth: board key ${signedIn.keyId}`);

    const agent = await json("agent", "create", "Worker", "--adapter", "process", "--config", JSON.stringify({ command: "/bin/true" }), "--role", "engineer");
    expect(agent).toMatchObject({ name: "Worker", adapterType: "process" });
    expect((await json("agent", "list")).map((a: any) => a.id)).toEqual([agent.id]);
    const key = await json("agent", "keys", agent.id, "--name", "ci");
    expect(key.token).toMatch(/^svc_agent_/);
    expect((await json("agent", "pause", agent.id)).status).toBe("paused");
    expect((await json("agent", "resume", agent.id)).status).not.toBe("paused");

    const issue = await json("issue", "create", "First task", "--description", "from the CLI");
    expect(issue.identifier).toBe(`${company.issuePrefix}-1`);
    const shown = await json("issue", "show", issue.identifier);
    expect(shown).toMatchObject({ id: issue.id, title: "First task", description: "from the CLI" });
    const comment = await json("issue", "comment", issue.identifier, "Looks good");
    expect(comment.body).toBe("Looks good");
    expect((await json("issue", "assign", issue.identifier, agent.id)).assigneeAgentId).toBe(agent.id);
    // Tables head their columns in words and show the agent's name, not its id.
    const table = (await acp("issue", "list")).stdout.split("\n");
    expect(table[0]).toMatch(/^Issue +Title +Status +Priority +Assignee$/);
    expect(table[1]).toMatch(new RegExp(`^${issue.identifier} +First task +\\S+ +\\S+ +Worker$`));
    expect(table.join("\n")).not.toContain(agent.id);
    expect((await json("issue", "done", issue.identifier)).status).toBe("done");
    const listed = await json("issue", "list", "--status", "done");
    expect(listed.map((i: any) => i.identifier)).toEqual([issue.identifier]);

    expect(await json("approval", "list")).toEqual([]);
    expect(await json("cost", "summary")).toMatchObject({ spendCents: 0, budgetCents: 10000 });
    expect(Array.isArray(await json("run", "list"))).toBe(true);
    expect(await json("routine", "list")).toEqual([]);

    const skillDir = path.join(mkdtempSync(path.join(tmpdir(), "acp-skill-")), "greeter");
    mkdirSync(path.join(skillDir, "references"), { recursive: true });
    writeFileSync(path.join(skillDir, "SKILL.md"), "---\nname: Greeter\ndescription: Greets people politely\n---\n\n# Greeter\n\nSay hello.\n");
    writeFileSync(path.join(skillDir, "references", "tone.md"), "Be kind.\n");
    await json("skill", "import", skillDir);
    expect((await json("skill", "list")).map((s: any) => s.name)).toContain("Greeter");

    const packageFile = path.join(configDir, "export.json");
    const exported = await json("export", "--out", packageFile);
    expect(exported.files).toBeGreaterThan(1);
    const preview = await json("import", packageFile, "--preview");
    // Everything in the package already exists in this company: the preview skips it.
    expect(Object.values(preview.skip as Record<string, number>).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(preview.collisions.length).toBeGreaterThan(0);

    // A bad command: the API's error message, a non-zero exit.
    const missing = await acp("issue", "show", `${company.issuePrefix}-999`);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/not found/i);
    const usage = await acp("issue", "frobnicate");
    expect(usage.code).not.toBe(0);

    // logout revokes the key: it no longer works.
    const logout = await json("logout");
    expect(logout).toMatchObject({ revoked: true, keyId: signedIn.keyId });
    expect(JSON.parse(readFileSync(configFile, "utf8")).token).toBeUndefined();
    const revoked = await acp("whoami", "--token", saved.token);
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toMatch(/HTTP 401/);
    // Signed out, in local mode: the implicit local board, by name.
    const local = await acp("whoami");
    expect(local.stdout).toMatch(/^Local Board <local-board@localhost> \(instance admin\)\n/);
    expect(local.stdout).toContain("auth: local mode (no sign-in needed)");
  });

  it("shards list and move: a company moved to the other shard keeps its issues (the dev server runs two shards)", async () => {
    const company = (await (
      await fetch(`${base}/api/companies`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: `Shard move ${Date.now()}` }),
      })
    ).json()) as any;
    const issue = (await (
      await fetch(`${base}/api/companies/${company.id}/issues`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ title: "moves along" }),
      })
    ).json()) as any;
    const before = await json("shards", "list", "--url", base);
    expect(before.map((s: any) => s.shard)).toEqual(expect.arrayContaining(["DB_SHARD_0", "DB_SHARD_1"]));
    const table = (await acp("shards", "list", "--url", base)).stdout.split("\n");
    expect(table[0]).toMatch(/^Shard +Companies$/);
    // Move it to whichever shard it is not on: the first try names one; 409 means it is already there.
    let moved = await acp("shards", "move", company.id, "--to", "DB_SHARD_1", "--url", base);
    if (moved.code !== 0 && /HTTP 409/.test(moved.stderr)) moved = await acp("shards", "move", company.id, "--to", "DB_SHARD_0", "--url", base);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(new RegExp(`^Moved ${company.id} from DB_SHARD_\\d to DB_SHARD_\\d: \\d+ tables, \\d+ rows verified`));
    const after = await (await fetch(`${base}/api/issues/${issue.id}`)).json();
    expect(after).toMatchObject({ id: issue.id, identifier: issue.identifier, title: "moves along" });
    const bad = await acp("shards", "move", company.id, "--to", "NOPE", "--url", base);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/HTTP 400/);
  });

  it("plugin list, install, disable, enable and tools: the knowledge wiki's lifecycle as the local instance admin", async () => {
    const plugin = (...args: string[]) => json("plugin", ...args, "--url", base);
    // Installed here, or already by an earlier run or test (then it is listed with its key).
    let wiki = (await plugin("list")).find((p: any) => p.pluginKey === "knowledge-wiki");
    if (!wiki) wiki = await plugin("install", "knowledge-wiki");
    if (wiki.status !== "ready") wiki = await plugin("enable", "knowledge-wiki");
    expect(wiki).toMatchObject({ pluginKey: "knowledge-wiki", status: "ready" });
    const again = await acp("plugin", "install", "knowledge-wiki", "--url", base);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/HTTP 409/);
    try {
      const disabled = await acp("plugin", "disable", wiki.id, "--url", base);
      expect(disabled.stdout).toMatch(new RegExp(`^Disabled knowledge-wiki \\S+ \\(${wiki.id}\\): disabled\n`));
      const table = (await acp("plugin", "list", "--url", base)).stdout.split("\n");
      expect(table[0]).toMatch(/^Id +Key +Version +Status +Last error +Updated$/);
      expect(table.find((l) => l.startsWith(wiki.id))).toMatch(new RegExp(`^${wiki.id} +knowledge-wiki +\\S+ +disabled +\\d{4}-`));
      expect((await plugin("list", "--status", "disabled")).map((p: any) => p.id)).toContain(wiki.id);
      expect((await plugin("tools", "--plugin", "knowledge-wiki")).map((t: any) => t.name)).toEqual([]);
    } finally {
      expect((await plugin("enable", "knowledge-wiki")).status).toBe("ready");
    }
    expect((await plugin("list", "--status", "ready")).map((p: any) => p.id)).toContain(wiki.id);
    const tools = await plugin("tools", "--plugin", wiki.id);
    expect(tools.map((t: any) => t.name)).toContain("knowledge-wiki:wiki_search");
    expect((await acp("plugin", "tools", "--url", base)).stdout).toMatch(/^knowledge-wiki:wiki_search +\S/m);
    const unknown = await acp("plugin", "enable", "no-such-plugin", "--url", base);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/HTTP 404/);
  });

  it("webhooks deliver signed events to a local receiver and events tail prints them as they happen", async () => {
    // The receiver: records each delivery (headers and the exact bytes) and acknowledges it.
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/acp`;
    const deliveredOf = (type: string) => received.filter((r) => r.headers["x-service-event-type"] === type).map((r) => ({ ...r, event: JSON.parse(r.body) }));
    const tailArgs = ["events", "tail", "--types", "issue.*", "--url", base];
    let tail: ReturnType<typeof spawn> | null = null;
    try {
      const company = await json("company", "create", `Events Co ${Date.now()}`, "--url", base);

      // Created in words: the secret on a line of its own, said to be shown once.
      const created = await acp(
        "webhooks",
        "create",
        "--endpoint",
        endpoint,
        "--events",
        "issue.*,approval.resolved",
        "--description",
        "e2e receiver",
        "--url",
        base,
      );
      expect(created.code, created.stderr).toBe(0);
      const [, webhookId] = /^Created webhook (\S+) → /.exec(created.stdout)!;
      const secret = /shown only now.*\n\s+(\S+)\n/.exec(created.stdout)![1];
      expect(secret.length).toBeGreaterThan(20);
      // Listed without it, in a table with headers in words.
      const listed = await acp("webhooks", "list", "--url", base);
      expect(listed.stdout.split("\n")[0]).toMatch(/^Id +URL +Events +State +Description +Created$/);
      expect(listed.stdout.split("\n")[1]).toMatch(new RegExp(`^${webhookId} +${endpoint} +issue\\.\\*,approval\\.resolved +enabled +e2e receiver +\\d{4}-`));
      expect(listed.stdout).not.toContain(secret);
      const listedJson = await json("webhooks", "list", "--url", base);
      expect(listedJson).toEqual([expect.objectContaining({ id: webhookId, url: endpoint, events: ["issue.*", "approval.resolved"], enabled: true })]);
      expect(JSON.stringify(listedJson)).not.toContain(secret);

      // The tail is following (the stream is open) before the issue is created.
      let tailOut = "";
      let tailErr = "";
      tail = spawn(process.execPath, [cli, ...tailArgs], { env });
      tail.stdout!.on("data", (d) => (tailOut += d));
      tail.stderr!.on("data", (d) => (tailErr += d));
      const tailExit = new Promise<number | null>((resolve) => tail!.on("exit", resolve));
      await eventually(() => tailErr.includes("Following events (issue.*); Ctrl-C stops"), { timeoutMs: 10_000, what: "the tail to connect" });

      const issue = await json("issue", "create", "Tell the receiver", "--priority", "high", "--url", base);
      const line = await eventually(() => tailOut.split("\n").find((l) => l.includes("issue.created")), {
        timeoutMs: 10_000,
        what: "the tail's issue.created line",
      });
      expect(line).toMatch(
        new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  issue\\.created +issue ${issue.identifier}  "Tell the receiver" \\(backlog, high\\)$`),
      );
      // Delivered, signed with the secret the CLI printed over the exact bytes sent.
      const [delivery] = await eventually(() => (deliveredOf("issue.created").length ? deliveredOf("issue.created") : null), {
        timeoutMs: 10_000,
        what: "the issue.created delivery",
      });
      expect(delivery.event).toMatchObject({ type: "issue.created", companyId: company.id, subject: { type: "issue", id: issue.id } });
      const signature = createHmac("sha256", secret).update(`${delivery.headers["x-service-timestamp"]}.${delivery.body}`).digest("hex");
      expect(delivery.headers["x-service-signature"]).toBe(`sha256=${signature}`);

      // The deliveries, as the service recorded them.
      const deliveries = await eventually(
        async () => {
          const page = await json("webhooks", "deliveries", webhookId, "--url", base);
          return page.deliveries.find((d: any) => d.eventType === "issue.created" && d.status === "succeeded") && page;
        },
        { timeoutMs: 10_000, what: "a succeeded delivery" },
      );
      expect(deliveries.deliveries[0]).toMatchObject({ eventId: delivery.event.id, responseStatus: 200, attempts: 1 });
      const table = (await acp("webhooks", "deliveries", webhookId, "--url", base)).stdout.split("\n");
      expect(table[0]).toMatch(/^Id +Event +Status +Attempts +HTTP +Latency +Next attempt +Last error +Created$/);
      expect(table[1]).toMatch(new RegExp(`^${deliveries.deliveries[0].id} +issue\\.created +succeeded +1 +200 +\\d+ ms +\\d{4}-`));

      // A test ping, and a redelivery of the issue's event (the same event id again).
      const ping = await json("webhooks", "test", webhookId, "--url", base);
      await eventually(() => deliveredOf("ping").some((d) => d.event.id === ping.eventId), { timeoutMs: 10_000, what: "the ping" });
      await json("webhooks", "redeliver", webhookId, deliveries.deliveries[0].id, "--url", base);
      await eventually(() => deliveredOf("issue.created").length === 2, { timeoutMs: 10_000, what: "the redelivery" });
      expect(deliveredOf("issue.created")[1].event.id).toBe(delivery.event.id);

      // A new secret, printed once; disabled; deleted.
      const rotated = await acp("webhooks", "rotate", webhookId, "--url", base);
      const newSecret = /shown only now.*\n\s+(\S+)\n/.exec(rotated.stdout)![1];
      expect(newSecret).not.toBe(secret);
      expect((await json("webhooks", "update", webhookId, "--disable", "--url", base)).enabled).toBe(false);
      expect((await acp("webhooks", "list", "--url", base)).stdout.split("\n")[1]).toMatch(/ disabled +e2e receiver /);
      expect((await json("webhooks", "delete", webhookId, "--url", base)).id).toBe(webhookId);
      expect(await json("webhooks", "list", "--url", base)).toEqual([]);

      // Ctrl-C ends the tail with exit code 0; it printed only issue events.
      tail.kill("SIGINT");
      expect(await tailExit).toBe(0);
      expect(
        tailOut
          .trim()
          .split("\n")
          .every((l) => / issue\.\w+ +issue /.test(l)),
      ).toBe(true);
    } finally {
      tail?.kill("SIGKILL");
      receiver.close();
    }
  });
});

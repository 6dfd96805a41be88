// The CLI in a scripted session against the real dev server: login through the device flow (the
// test approves the code), daily commands in --json mode with their output parsed, a bad command's
// exit code and message, and logout revoking the key.
import { execFile, spawn } from "node:child_process";
import { createServer } from "node:http";
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
    const approved = await fetch(`${base}/api/cli-auth/challenges/${challengeId}/approve`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userCode }) });
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
});

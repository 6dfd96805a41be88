// `acp notify` against the dev server, with a fake Slack on this machine (test/setup/fake-notify.ts):
// add a channel (its URL kept as a company secret), list it, send a test message and read the log.
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { devApi, devBase } from "./dev-server";
import { serveFakeNotify } from "../setup/fake-notify";

const root = path.resolve(import.meta.dirname, "../..");
const cli = path.join(root, "dist/cli.cjs");
let base = "";
let fake = "";
let env: Record<string, string | undefined> = {};

function acp(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { env: env as NodeJS.ProcessEnv, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("acp notify (dev server, fake Slack)", () => {
  beforeAll(async () => {
    base = await devBase();
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (!serveFakeNotify(new URL(req.url ?? "/", "http://fake"), req, res, Buffer.concat(chunks))) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    server.unref();
    fake = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const company = await devApi(base, "POST", "/api/companies", { name: `Notify ${Date.now()}` });
    env = { ...process.env, ACP_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), "acp-notify-")), ACP_URL: base, ACP_TOKEN: "", ACP_COMPANY: company.id };
  }, 120_000);

  it("adds a Slack channel, lists it without its URL, sends a test message and shows the log", async () => {
    const id = `cli-${Date.now()}`;
    const url = `${fake}/notify/slack/ok/${id}`;
    const added = await acp("notify", "add", "slack", "Ops room", "--target", url, "--events", "approval.created,question.*", "--json");
    expect(added.code, added.stderr).toBe(0);
    const channel = JSON.parse(added.stdout);
    expect(channel).toMatchObject({ kind: "slack", name: "Ops room", events: ["approval.created", "question.*"], target: { type: "secret_ref" } });
    const list = await acp("notify", "channels");
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain("Ops room");
    expect(list.stdout).not.toContain(url);
    const test = await acp("notify", "test", channel.id);
    expect(test.code, test.stderr).toBe(0);
    expect(test.stdout).toMatch(/delivered \(HTTP 200\)/);
    const received: any[] = await (await fetch(`${fake}/__notify/${id}`)).json();
    expect(received).toHaveLength(1);
    expect(received[0].body.text).toContain("Test message");
    const log = await acp("notify", "log", channel.id);
    expect(log.code, log.stderr).toBe(0);
    expect(log.stdout).toContain("Test message");
    const bad = await acp("notify", "add", "pager", "x", "--target", "y");
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("Unknown kind pager");
  });
});

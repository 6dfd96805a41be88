// The README's edge-agent quick start, run as written (bash, the built CLI, jq) against the dev
// server, with the model server it names (Ollama at 127.0.0.1:11434) replaced by the fake one of
// the test run (test/setup/fake-llm.ts, scenario `work`): the agent checks the issue out, comments,
// closes it, and its run succeeds — all in the service's own loop object, nothing else running.
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { devApi, devBase } from "./dev-server";
import { serveFakeLlm } from "../setup/fake-llm";

const root = path.resolve(import.meta.dirname, "../..");
let base = "";
let fake = "";

/** The README's block between the edge-agent-quick-start markers. */
function quickStart(): string {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const block = /<!-- edge-agent-quick-start -->\n```sh\n([\s\S]*?)```\n<!-- \/edge-agent-quick-start -->/.exec(readme);
  if (!block) throw new Error("README: the edge-agent quick start block is missing");
  return block[1];
}

describe("edge agent quick start (README)", () => {
  beforeAll(async () => {
    base = await devBase();
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (!serveFakeLlm(new URL(req.url ?? "/", "http://fake"), req, res, Buffer.concat(chunks).toString("utf8"))) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    server.unref();
    fake = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);

  it("runs as written: the agent closes the issue with a comment, using only a model API", async () => {
    const fakeId = `readme-${Date.now()}`;
    const script = quickStart()
      .replace("export ACP_URL=http://127.0.0.1:8787", `export ACP_URL=${base}`)
      .replace("http://127.0.0.1:11434/v1", `${fake}/llm/work/${fakeId}/v1`);
    expect(script).toContain(`${fake}/llm/work/${fakeId}/v1`);
    const cli = path.join(root, "dist/cli.cjs");
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        "bash",
        ["-euo", "pipefail", "-c", `acp() { "${process.execPath}" "${cli}" "$@"; }\n${script}\necho "ISSUE=$ISSUE"`],
        { env: { ...process.env, ACP_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), "acp-edge-")), ACP_TOKEN: "", ACP_COMPANY: "" }, timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/status: done/);
    expect(stdout).toMatch(/succeeded/);
    const identifier = /ISSUE=(\S+)/.exec(stdout)![1];
    const comments = await devApi(base, "GET", `/api/issues/${identifier}/comments`);
    expect(comments.map((c: { body: string }) => c.body)).toEqual(["Working on it: the fix is in."]);
    const requests = await (await fetch(`${fake}/__llm/${fakeId}`)).json();
    expect(requests).toHaveLength(4);
  });
});

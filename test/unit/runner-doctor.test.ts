// The doctor (src/cli/doctor.ts) against the fake CLIs: the CLI found, its version, its sign-in and
// the hello probe; a missing CLI, a CLI not signed in, and the probe switched off.
import { describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runDoctor } from "../../src/cli/doctor";
import { FAKE_BIN, tempDir } from "../helpers/local-runtimes";

const baseEnv = (extra: Record<string, string> = {}) => ({ PATH: `${FAKE_BIN}:${process.env.PATH}`, ...extra });

describe("acp runner doctor", () => {
  it("passes: found, version, signed in (an API key in the agent's env), the hello probe answered", async () => {
    const home = tempDir("acp-doctor-");
    const result = await runDoctor({
      adapterType: "claude_local",
      adapterConfig: { cwd: tempDir("acp-doctor-cwd-") },
      env: { ANTHROPIC_API_KEY: "sk" },
      probe: true,
      baseEnv: baseEnv(),
      home,
    });
    expect(result.checks.map((c) => c.code)).toEqual([
      "claude_cwd_valid",
      "claude_command_found",
      "claude_version",
      "claude_signed_in",
      "claude_hello_probe_unexpected_output",
    ]);
    expect(result.checks.find((c) => c.code === "claude_version")?.message).toContain("claude fake 1.2.3");
    expect(result.status).toBe("warn"); // the fake answers with its summary, not "hello"
  });

  it("a plan login on disk counts as signed in; no probe when switched off", async () => {
    const home = tempDir("acp-doctor-");
    mkdirSync(path.join(home, ".codex"), { recursive: true });
    writeFileSync(path.join(home, ".codex/auth.json"), "{}");
    const result = await runDoctor({ adapterType: "codex_local", adapterConfig: {}, env: {}, probe: false, baseEnv: baseEnv(), home });
    expect(result).toMatchObject({ status: "pass" });
    expect(result.checks.find((c) => c.code === "codex_signed_in")?.message).toContain("plan login");
    expect(result.checks.some((c) => c.code.includes("probe"))).toBe(false);
  });

  it("fails: the CLI not on PATH (with how to install it); the probe not signed in", async () => {
    const missing = await runDoctor({
      adapterType: "gemini_local",
      adapterConfig: {},
      env: {},
      probe: true,
      baseEnv: { PATH: "/nonexistent" },
      home: tempDir("acp-doctor-"),
    });
    expect(missing.status).toBe("fail");
    expect(missing.checks.at(-1)).toMatchObject({ code: "gemini_command_missing", level: "error", hint: expect.stringContaining("@google/gemini-cli") });
    const unsigned = await runDoctor({
      adapterType: "gemini_local",
      adapterConfig: {},
      env: { FAKE_SCENARIO: "auth" },
      probe: true,
      baseEnv: baseEnv(),
      home: tempDir("acp-doctor-"),
    });
    expect(unsigned.status).toBe("fail");
    expect(unsigned.checks.map((c) => c.code)).toEqual(expect.arrayContaining(["gemini_not_signed_in", "gemini_hello_probe_auth_required"]));
  });
});

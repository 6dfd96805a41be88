// The doctor: can this machine run a `<runtime>_local` agent? The CLI on PATH, its version, how it is
// signed in, and (unless switched off) a short hello probe through the same command line a run
// uses. `acp runner doctor` runs it here; a service's env.test message (POST
// /api/companies/{companyId}/adapters/{type}/test-environment) runs it on a connected runner.
import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import type { EnvCheck } from "../protocol/runner";
import { LOCAL_RUNTIME_INFO, localRuntimeOf, readLocalConfig } from "../protocol/local-runtimes";
import { spawnChild } from "./child";
import { classifyFailure } from "./runtimes/classify";
import { runtimeEnvironment } from "./runtimes/environment";
import { RUNTIME_DRIVERS } from "./runtimes";
import { findOnPath, runtimeCommand } from "./local-run";

export interface DoctorInput {
  adapterType: string;
  adapterConfig: Record<string, unknown>;
  /** The agent's environment (its bindings resolved). */
  env: Record<string, string>;
  probe: boolean;
  /** Test seams. */
  baseEnv?: Record<string, string | undefined>;
  home?: string;
  probeTimeoutSec?: number;
}

export interface DoctorResult {
  status: "pass" | "warn" | "fail";
  checks: EnvCheck[];
}

const PACKAGES: Record<string, string> = {
  claude: "npm install -g @anthropic-ai/claude-code",
  codex: "npm install -g @openai/codex",
  gemini: "npm install -g @google/gemini-cli",
  opencode: "npm install -g opencode-ai",
  cursor: "curl https://cursor.com/install -fsS | bash",
  pi: "npm install -g @mariozechner/pi-coding-agent",
};

export const statusOf = (checks: EnvCheck[]): DoctorResult["status"] =>
  checks.some((c) => c.level === "error") ? "fail" : checks.some((c) => c.level === "warn") ? "warn" : "pass";

/** Runs a command to its end (at most `timeoutSec`): its exit, stdout and stderr. */
async function capture(command: string, args: string[], env: Record<string, string>, cwd: string, stdin: string | null, timeoutSec: number) {
  let stdout = "";
  let stderr = "";
  const child = spawnChild({ command, args, cwd, env, stdin, timeoutSec, graceSec: 2 }, (stream, text) => {
    if (stream === "stdout") stdout += text;
    else stderr += text;
  });
  const exit = await child.done;
  return { exit, stdout, stderr };
}

export async function runDoctor(input: DoctorInput): Promise<DoctorResult> {
  const runtime = localRuntimeOf(input.adapterType);
  if (!runtime)
    return { status: "fail", checks: [{ code: "unknown_runtime", level: "error", message: `${input.adapterType} is not a local runtime`, hint: null }] };
  const driver = RUNTIME_DRIVERS[runtime];
  const info = LOCAL_RUNTIME_INFO[runtime];
  const config = readLocalConfig(runtime, input.adapterConfig);
  const base = input.baseEnv ?? process.env;
  const home = input.home ?? base.HOME ?? homedir();
  const env = runtimeEnvironment(driver, input.env, {}, base);
  const checks: EnvCheck[] = [];
  const cwd = path.resolve(config.cwd ?? process.cwd());
  try {
    mkdirSync(cwd, { recursive: true });
    checks.push({ code: `${runtime}_cwd_valid`, level: "info", message: `Working directory ${cwd}`, hint: null });
  } catch (err) {
    checks.push({
      code: `${runtime}_cwd_invalid`,
      level: "error",
      message: `Working directory ${cwd} cannot be used: ${(err as Error).message}`,
      hint: "Set adapterConfig.cwd to a directory the runner may write",
    });
    return { status: "fail", checks };
  }
  const wanted = runtimeCommand(config, info.commands, env.PATH);
  const command = wanted.includes("/") ? (existsSync(wanted) ? wanted : null) : findOnPath([wanted], env.PATH);
  if (!command) {
    checks.push({
      code: `${runtime}_command_missing`,
      level: "error",
      message: `${config.command ?? info.commands.join(" or ")} is not on this runner's PATH`,
      hint: `Install it (${PACKAGES[runtime]}), or set adapterConfig.command to its path`,
    });
    return { status: "fail", checks };
  }
  checks.push({ code: `${runtime}_command_found`, level: "info", message: `Found ${command}`, hint: null });
  const version = await capture(command, ["--version"], env, cwd, null, 15);
  const versionText = (version.stdout || version.stderr).trim().split("\n")[0] ?? "";
  if (version.exit.exitCode === 0 && versionText) checks.push({ code: `${runtime}_version`, level: "info", message: `Version ${versionText}`, hint: null });
  else
    checks.push({
      code: `${runtime}_version_unknown`,
      level: "warn",
      message: `\`${path.basename(command)} --version\` did not answer (${version.exit.timedOut ? "timed out" : `exit ${version.exit.exitCode}`})`,
      hint: null,
    });
  const signedIn = driver.signedIn(env, home);
  if (signedIn) checks.push({ code: `${runtime}_signed_in`, level: "info", message: `Signed in: ${signedIn}`, hint: null });
  else
    checks.push({
      code: `${runtime}_not_signed_in`,
      level: driver.preflight ? "error" : "warn",
      message: "No sign-in found on this machine (no plan login, no API key in the agent's env)",
      hint: driver.loginHint,
    });
  if (!input.probe) return { status: statusOf(checks), checks };

  const model = config.model ?? info.defaultModel;
  const launch = driver.launch({
    config: { ...config, maxTurnsPerRun: undefined, extraArgs: config.extraArgs },
    command,
    model,
    prompt: "Respond with hello.",
    resume: null,
    cwd,
    instructions: null,
  });
  const timeoutSec = input.probeTimeoutSec ?? 45;
  const probe = await capture(command, launch.args, { ...env, ...launch.env }, cwd, launch.stdin, timeoutSec);
  const parser = driver.parser();
  for (const line of probe.stdout.split("\n")) parser.line(line);
  parser.flush();
  const parsed = parser.result();
  const ok = (parsed.succeeded ?? probe.exit.exitCode === 0) && !driver.exitCodeMeaning?.(probe.exit.exitCode);
  if (probe.exit.timedOut)
    checks.push({ code: `${runtime}_hello_probe_timed_out`, level: "warn", message: `The hello probe did not finish within ${timeoutSec} s`, hint: null });
  else if (ok && /hello/i.test(parsed.summary ?? ""))
    checks.push({
      code: `${runtime}_hello_probe_passed`,
      level: "info",
      message: `The hello probe answered: ${(parsed.summary ?? "").slice(0, 200)}`,
      hint: null,
    });
  else if (ok)
    checks.push({
      code: `${runtime}_hello_probe_unexpected_output`,
      level: "warn",
      message: `The hello probe answered something else: ${(parsed.summary ?? "(nothing)").slice(0, 200)}`,
      hint: null,
    });
  else {
    const meaning = driver.exitCodeMeaning?.(probe.exit.exitCode);
    const failure = meaning
      ? { code: meaning, evidence: `exit ${probe.exit.exitCode}` }
      : classifyFailure([...parsed.errors, parsed.summary ?? "", probe.stderr].join("\n"), parsed.stopReason);
    const said = (parsed.errors[0] ?? probe.stderr.trim().split("\n")[0] ?? "").slice(0, 300);
    if (failure.code === "auth_required")
      checks.push({ code: `${runtime}_hello_probe_auth_required`, level: "error", message: `Not signed in: ${said}`, hint: driver.loginHint });
    else if (failure.code === "provider_rate_limited")
      checks.push({ code: `${runtime}_hello_probe_usage_limited`, level: "warn", message: `A usage or rate limit: ${said}`, hint: null });
    else if (failure.code === "model_not_found")
      checks.push({
        code: `${runtime}_hello_probe_model_unavailable`,
        level: "error",
        message: `Model ${model} is not available: ${said}`,
        hint: "Set adapterConfig.model to a model this CLI offers",
      });
    else
      checks.push({
        code: `${runtime}_hello_probe_failed`,
        level: "error",
        message: `The hello probe failed (exit ${probe.exit.exitCode}): ${said}`,
        hint: null,
      });
  }
  return { status: statusOf(checks), checks };
}

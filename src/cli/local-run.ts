// Runs one `<runtime>_local` run: the runtime's CLI (src/cli/runtimes/<runtime>.ts) started in its
// non-interactive mode with the service's prompt, in the run's working directory, with an allowlisted
// environment. Its output is parsed line by line as it arrives (the first and last events of any
// length of output are kept: nothing is read from a tail buffer), sent as the run's transcript
// while the raw output goes to the log; the outcome carries the CLI's final result, its session,
// usage and cost, and its failure told apart (not signed in, a usage limit with its reset time,
// a turn limit, an unknown model). A session that cannot be resumed is retried once afresh.
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { LOCAL_RUNTIME_INFO, localRuntimeOf, readLocalConfig, type LocalConfig } from "../protocol/local-runtimes";
import type { RunStart, RunUsageReport } from "../protocol/runner";
import { spawnChild, type ChildExit, type RunningChild } from "./child";
import { classifyFailure } from "./runtimes/classify";
import { runtimeEnvironment, serviceVariables } from "./runtimes/environment";
import { RUNTIME_DRIVERS } from "./runtimes";
import type { ParsedOutput, RuntimeDriver } from "./runtimes/types";
import type { RunOutcome, RunOutput, RunningRun } from "./run-output";

export interface LocalRunDeps {
  env?: Record<string, string | undefined>;
  home?: string;
  now?: () => Date;
}

/** The first executable of `names` found on `PATH`, or null. */
export function findOnPath(names: readonly string[], pathVariable: string | undefined): string | null {
  for (const name of names) {
    if (name.includes("/")) return existsSync(name) ? name : null;
    for (const dir of (pathVariable ?? "").split(path.delimiter).filter(Boolean)) {
      const candidate = path.join(dir, name);
      try {
        if (statSync(candidate).isFile()) return candidate;
      } catch {
        /* not here */
      }
    }
  }
  return null;
}

/** The executable a run starts: the configured command, else the runtime's first default on PATH. */
export function runtimeCommand(config: LocalConfig, commands: readonly string[], pathVariable: string | undefined): string {
  return config.command ?? findOnPath(commands, pathVariable) ?? commands[0];
}

interface Attempt {
  exit: ChildExit;
  parsed: ParsedOutput;
  stderrTail: string;
  plainTail: string;
  turnLimitHit: boolean;
  resumed: string | null;
}

const TAIL = 8 * 1024;
const keepTail = (text: string) => (text.length > TAIL ? text.slice(-TAIL) : text);
const firstLine = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .find(Boolean) ?? "";

export function startLocalRun(start: RunStart, output: RunOutput, deps: LocalRunDeps = {}): RunningRun {
  const runtime = localRuntimeOf(start.adapterType);
  if (!runtime)
    return { done: Promise.resolve({ status: "failed", errorCode: "process_failed", error: `${start.adapterType} is not a local runtime` }), cancel: () => {} };
  const driver = RUNTIME_DRIVERS[runtime];
  const info = LOCAL_RUNTIME_INFO[runtime];
  const config = readLocalConfig(runtime, start.adapterConfig);
  const baseEnv = deps.env ?? process.env;
  const home = deps.home ?? baseEnv.HOME ?? homedir();
  const now = deps.now ?? (() => new Date());
  let current: RunningChild | null = null;
  let cancelled = false;

  const done = (async (): Promise<RunOutcome> => {
    const cwd = path.resolve(config.cwd ?? process.cwd());
    try {
      mkdirSync(cwd, { recursive: true });
    } catch (err) {
      return { status: "failed", errorCode: "process_failed", error: `Could not use the working directory ${cwd}: ${(err as Error).message}` };
    }
    const model = config.model ?? info.defaultModel;
    const env = runtimeEnvironment(driver, start.env, serviceVariables(start), baseEnv);
    const command = runtimeCommand(config, info.commands, env.PATH);
    const preflight = driver.preflight?.(env, home);
    if (preflight) return { status: "failed", errorCode: "auth_required", error: `${preflight} ${driver.loginHint}` };
    let instructions: { path: string; text: string } | null = null;
    if (config.instructionsFilePath) {
      const file = path.resolve(cwd, config.instructionsFilePath);
      try {
        instructions = { path: file, text: readFileSync(file, "utf8") };
      } catch (err) {
        return { status: "failed", errorCode: "process_failed", error: `Could not read instructionsFilePath ${file}: ${(err as Error).message}` };
      }
    }
    // Resume only a session made here, for this directory and model.
    const saved = start.session;
    let resume: string | null = null;
    if (saved) {
      const savedCwd = typeof saved.params.cwd === "string" ? saved.params.cwd : null;
      const savedModel = typeof saved.params.model === "string" ? saved.params.model : null;
      if ((savedCwd ?? cwd) === cwd && (savedModel ?? model) === model) resume = saved.id;
      else
        output.events([
          {
            kind: "status",
            message: `Session ${saved.id} was saved for ${savedCwd ?? "?"} with ${savedModel ?? "?"}; starting a new one in ${cwd} with ${model}`,
          },
        ]);
    }

    const attempt = async (resumeId: string | null): Promise<Attempt> => {
      const launch = driver.launch({ config, command, model, prompt: start.prompt, resume: resumeId, cwd, instructions: resumeId ? null : instructions });
      const shownArgs = launch.args.map((a) => (a.length > 200 && a === launch.args[launch.args.length - 1] ? `<prompt, ${a.length} characters>` : a));
      output.events([
        {
          kind: "status",
          message: `Starting ${command} ${shownArgs.join(" ")}${resumeId ? ` (resuming ${resumeId})` : ""}`,
          data: { command, args: shownArgs, cwd, notes: launch.notes, resumed: resumeId, promptChars: start.prompt.length },
        },
      ]);
      const parser = driver.parser();
      let pending = "";
      let stderrTail = "";
      let plainTail = "";
      let turnLimitHit = false;
      const limit = !info.nativeMaxTurns ? config.maxTurnsPerRun : undefined;
      const onLine = (line: string) => {
        const events = parser.line(line);
        if (events.length) output.events(events);
        else if (line.trim() && !line.trim().startsWith("{")) plainTail = keepTail(`${plainTail}${line}\n`);
        if (limit && !turnLimitHit && parser.result().toolTurns > limit) {
          turnLimitHit = true;
          output.events([{ kind: "error", message: `Turn limit reached (maxTurnsPerRun ${limit}): stopping the CLI` }]);
          child.stop();
        }
      };
      const child = spawnChild(
        {
          command,
          args: launch.args,
          cwd,
          env: { ...env, ...launch.env },
          stdin: launch.stdin,
          timeoutSec: config.timeoutSec ?? 0,
          graceSec: config.graceSec ?? 15,
        },
        (stream, text) => {
          output.log(stream, text);
          if (stream === "stderr") {
            stderrTail = keepTail(stderrTail + text);
            return;
          }
          pending += text;
          let newline = pending.indexOf("\n");
          while (newline >= 0) {
            onLine(pending.slice(0, newline));
            pending = pending.slice(newline + 1);
            newline = pending.indexOf("\n");
          }
        },
      );
      current = child;
      const exit = await child.done;
      if (pending) onLine(pending);
      const rest = parser.flush();
      if (rest.length) output.events(rest);
      const parsed = parser.result();
      if (parsed.unknownEvents)
        output.events([{ kind: "status", message: `${parsed.unknownEvents} output event(s) of a type the runner does not know were kept in the log` }]);
      return { exit, parsed, stderrTail, plainTail, turnLimitHit, resumed: resumeId };
    };

    let result = await attempt(resume);
    let clearSession = false;
    if (!cancelled && resume && !succeeded(result, driver) && failureOf(result, driver, now()).code === "unknown_session") {
      output.events([{ kind: "status", message: `Session ${resume} cannot be resumed; retrying with a new session` }]);
      result = await attempt(null);
      clearSession = !result.parsed.sessionId;
    }
    return outcome(result, { driver, config, command, model, cwd, env, clearSession, now: now() });
  })();

  return {
    done,
    cancel() {
      cancelled = true;
      current?.cancel();
    },
  };
}

function succeeded(result: Attempt, driver: RuntimeDriver): boolean {
  const { exit, parsed } = result;
  if (exit.spawnError || exit.timedOut || result.turnLimitHit || driver.exitCodeMeaning?.(exit.exitCode)) return false;
  return parsed.succeeded ?? (exit.exitCode === 0 && parsed.errors.length === 0);
}

function failureOf(result: Attempt, driver: RuntimeDriver, now: Date) {
  const meaning = driver.exitCodeMeaning?.(result.exit.exitCode);
  if (meaning) return { code: meaning, retryAt: null, evidence: `exit code ${result.exit.exitCode}` };
  const text = [...result.parsed.errors, result.parsed.summary ?? "", result.stderrTail, result.plainTail].join("\n");
  return classifyFailure(text, result.parsed.stopReason, now);
}

interface OutcomeFacts {
  driver: RuntimeDriver;
  config: LocalConfig;
  command: string;
  model: string;
  cwd: string;
  env: Record<string, string>;
  clearSession: boolean;
  now: Date;
}

/** What run.complete reports for the CLI's last attempt. */
function outcome(result: Attempt, facts: OutcomeFacts): RunOutcome {
  const { exit, parsed } = result;
  const { driver, config, command, model, cwd } = facts;
  const summary = parsed.summary ? parsed.summary.slice(0, 10_000) : null;
  const usage = usageOf(parsed, driver, facts.env, model);
  const sessionId = parsed.sessionId ?? result.resumed;
  const session = sessionId ? { sessionId, sessionParams: { cwd, model, runtime: driver.runtime, command } } : facts.clearSession ? { clearSession: true } : {};
  const details = {
    result: {
      stopReason: parsed.stopReason,
      toolTurns: parsed.toolTurns,
      unknownEvents: parsed.unknownEvents,
      resumed: result.resumed,
      ...(exit.signal ? { signal: exit.signal } : {}),
    },
  };
  const base = { exitCode: exit.exitCode, summary, ...(usage ? { usage } : {}), ...session, ...details };
  if (exit.spawnError)
    return {
      ...base,
      status: "failed",
      errorCode: "process_failed",
      error: `Could not start ${command}: ${exit.spawnError}. Install the ${LOCAL_RUNTIME_INFO[driver.runtime].label} CLI on this machine (on the runner's PATH), or set adapterConfig.command.`,
    };
  if (exit.timedOut) return { ...base, status: "timed_out", errorCode: "timeout", error: `Timed out after ${config.timeoutSec} s (timeoutSec)` };
  if (result.turnLimitHit) return { ...base, status: "failed", errorCode: "max_turns", error: `Stopped after ${config.maxTurnsPerRun} turns (maxTurnsPerRun)` };
  if (succeeded(result, driver)) return { ...base, status: "succeeded" };
  const failure = failureOf(result, driver, facts.now);
  const said = parsed.errors[0] ?? firstLine(result.stderrTail) ?? "";
  switch (failure.code) {
    case "auth_required":
      return { ...base, status: "failed", errorCode: "auth_required", error: `Not signed in (${failure.evidence}). ${driver.loginHint}` };
    case "provider_rate_limited":
      return {
        ...base,
        status: "failed",
        errorCode: "provider_rate_limited",
        error: `Usage or rate limit: ${said || failure.evidence}`.slice(0, 2000),
        nextRetryAt: failure.retryAt ? failure.retryAt.toISOString() : null,
      };
    case "max_turns":
      return {
        ...base,
        status: "failed",
        errorCode: "max_turns",
        error: `The CLI stopped at its turn limit${config.maxTurnsPerRun ? ` (maxTurnsPerRun ${config.maxTurnsPerRun})` : ""}`,
      };
    case "model_not_found":
      return { ...base, status: "failed", errorCode: "model_not_found", error: `Model ${model} is not available: ${said || failure.evidence}`.slice(0, 2000) };
    default: {
      const why = said || (exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.exitCode}`);
      return { ...base, status: "failed", errorCode: "process_failed", error: `${command} failed: ${why}`.slice(0, 2000) };
    }
  }
}

/** Tokens, cost and billing as the CLI reported them (nothing when it reported neither). */
function usageOf(parsed: ParsedOutput, driver: RuntimeDriver, env: Record<string, string>, configuredModel: string): RunUsageReport | null {
  const { tokens, costUsd } = parsed;
  if (!tokens.inputTokens && !tokens.cachedInputTokens && !tokens.outputTokens && costUsd === null) return null;
  const billing = driver.billing(env);
  const model = parsed.model && parsed.model !== "<synthetic>" ? parsed.model : configuredModel;
  return {
    ...tokens,
    ...(costUsd !== null ? { costUsd } : {}),
    model,
    provider: driver.provider(model),
    billingType: billing === "subscription_included" ? "subscription_included" : costUsd !== null ? "metered_api" : "unknown",
  };
}

// Runs one `process` (or `<runtime>_local`) run as a child process in its own process group:
// the run's environment, stdout/stderr streamed in chunks, the exit code mapped to the run's
// status, the whole group killed on cancel or timeout (SIGTERM, then SIGKILL after graceSec).
import { spawn, type ChildProcess } from "node:child_process";
import type { RunStart } from "../protocol/runner";

export interface ProcessOutcome {
  status: "succeeded" | "failed" | "timed_out";
  exitCode: number | null;
  summary: string | null;
  error?: string;
}

/** Default executables of the `<runtime>_local` adapters. */
const RUNTIME_COMMANDS: Record<string, string> = { claude: "claude", codex: "codex", gemini: "gemini", opencode: "opencode", cursor: "cursor-agent", pi: "pi" };

/** How long output may keep arriving after the main process exited. */
const DRAIN_MS = 1000;

const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** The command line for a run: `command` + `args` for process, the runtime CLI + `extraArgs` for `<runtime>_local`. */
export function commandLine(start: Pick<RunStart, "adapterType" | "adapterConfig">): { command: string; args: string[] } {
  const config = start.adapterConfig;
  if (start.adapterType === "process") return { command: String(config.command ?? ""), args: strings(config.args) };
  const runtime = start.adapterType.replace(/_local$/, "");
  return {
    command: typeof config.command === "string" && config.command ? config.command : (RUNTIME_COMMANDS[runtime] ?? runtime),
    args: strings(config.extraArgs),
  };
}

/** The child's environment: the runner's own, the run's resolved env, then the service variables. */
export function runEnvironment(start: RunStart, base: Record<string, string | undefined> = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (typeof v === "string") env[k] = v;
  Object.assign(env, start.env);
  const context = start.context ?? {};
  env.SERVICE_AGENT_ID = start.agentId;
  env.SERVICE_COMPANY_ID = start.companyId;
  env.SERVICE_RUN_ID = start.runId;
  env.SERVICE_API_URL = start.apiUrl;
  env.SERVICE_API_KEY = start.apiToken;
  env.SERVICE_WAKE_REASON = String(context.wakeReason ?? "");
  if (typeof context.issueId === "string") env.SERVICE_TASK_ID = context.issueId;
  if (typeof start.adapterConfig.model === "string") env.SERVICE_MODEL = start.adapterConfig.model;
  return env;
}

export interface RunningProcess {
  done: Promise<ProcessOutcome>;
  /** Kills the process group (the run was cancelled). */
  cancel(): void;
}

export function startProcess(start: RunStart, onOutput: (stream: "stdout" | "stderr", text: string) => void): RunningProcess {
  const { command, args } = commandLine(start);
  const config = start.adapterConfig;
  const timeoutSec = typeof config.timeoutSec === "number" && config.timeoutSec > 0 ? config.timeoutSec : 0;
  const graceSec = typeof config.graceSec === "number" && config.graceSec >= 0 ? config.graceSec : 15;
  let child: ChildProcess;
  let ended: "timeout" | "cancel" | null = null;
  let lastLine = "";
  const done = new Promise<ProcessOutcome>((resolve) => {
    if (!command) return resolve({ status: "failed", exitCode: null, summary: null, error: "adapterConfig.command is empty" });
    try {
      child = spawn(command, args, {
        cwd: typeof config.cwd === "string" ? config.cwd : undefined,
        env: runEnvironment(start) as NodeJS.ProcessEnv,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (err) {
      return resolve({ status: "failed", exitCode: null, summary: null, error: `Could not start ${command}: ${(err as Error).message}` });
    }
    child.stdout!.setEncoding("utf8").on("data", (text: string) => {
      const lines = text
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean);
      if (lines.length) lastLine = lines[lines.length - 1];
      onOutput("stdout", text);
    });
    child.stderr!.setEncoding("utf8").on("data", (text: string) => onOutput("stderr", text));
    const timer = timeoutSec ? setTimeout(() => kill("timeout"), timeoutSec * 1000) : null;
    child.on("error", (err) => {
      if (timer) clearTimeout(timer);
      resolve({ status: "failed", exitCode: null, summary: null, error: `Could not start ${command}: ${err.message}` });
    });
    // A background grandchild holding stdout keeps "close" from firing: after the main process
    // exits, the group is ended and the outcome is taken after a short drain.
    child.on("exit", (code, signal) => {
      setTimeout(() => {
        killGroup("SIGTERM");
        setTimeout(() => finish(code, signal), DRAIN_MS);
      }, DRAIN_MS);
    });
    let settled = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      if (ended === "timeout")
        return resolve({ status: "timed_out", exitCode: code, summary: lastLine || null, error: `Killed after ${timeoutSec} s (timeoutSec)` });
      if (code === 0) return resolve({ status: "succeeded", exitCode: 0, summary: lastLine.slice(0, 1000) || null });
      resolve({
        status: "failed",
        exitCode: code,
        summary: lastLine.slice(0, 1000) || null,
        error: signal ? `The process was killed by ${signal}` : `The process exited with code ${code}`,
      });
    };
    child.on("close", (code, signal) => {
      if (settled) return;
      if (timer) clearTimeout(timer);
      finish(code, signal);
    });
  });
  function killGroup(signal: NodeJS.Signals) {
    if (!child?.pid) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  }
  function kill(reason: "timeout" | "cancel") {
    if (!child?.pid || ended) return;
    ended = reason;
    const group = -child.pid;
    try {
      process.kill(group, "SIGTERM");
    } catch {
      /* already gone */
    }
    setTimeout(() => {
      try {
        process.kill(group, "SIGKILL");
      } catch {
        /* already gone */
      }
    }, graceSec * 1000).unref();
  }
  return { done, cancel: () => kill("cancel") };
}

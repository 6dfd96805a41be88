// One child process of a run, in its own process group: stdin written and closed, stdout and stderr
// streamed as they arrive, the whole group ended on cancel, on a limit or on timeout (SIGTERM, then
// SIGKILL after graceSec). A background grandchild holding stdout open does not keep the run alive:
// after the main process exits, the group is ended and the outcome taken after a short drain.
import { spawn, type ChildProcess } from "node:child_process";

export interface ChildSpec {
  command: string;
  args: string[];
  cwd?: string;
  env: Record<string, string>;
  /** Written to stdin, then closed (null: stdin is not used). */
  stdin: string | null;
  /** 0: no timeout. */
  timeoutSec: number;
  graceSec: number;
}

export interface ChildExit {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Ended by its timeout. */
  timedOut: boolean;
  /** Ended by stop() (a limit the runner enforces). */
  stopped: boolean;
  /** It could not be started (the message). */
  spawnError: string | null;
}

export interface RunningChild {
  done: Promise<ChildExit>;
  /** Ends the group (the run was cancelled). */
  cancel(): void;
  /** Ends the group because of a limit (the exit says `stopped`). */
  stop(): void;
}

/** How long output may keep arriving after the main process exited. */
const DRAIN_MS = 1000;

export function spawnChild(spec: ChildSpec, onOutput: (stream: "stdout" | "stderr", text: string) => void): RunningChild {
  let child: ChildProcess | undefined;
  let ended: "timeout" | "cancel" | "stop" | null = null;
  const done = new Promise<ChildExit>((resolve) => {
    const exit = (fields: Partial<ChildExit>) => ({ exitCode: null, signal: null, timedOut: false, stopped: false, spawnError: null, ...fields });
    try {
      child = spawn(spec.command, spec.args, {
        cwd: spec.cwd,
        env: spec.env as NodeJS.ProcessEnv,
        detached: true,
        stdio: [spec.stdin === null ? "ignore" : "pipe", "pipe", "pipe"],
      });
    } catch (err) {
      return resolve(exit({ spawnError: (err as Error).message }));
    }
    if (spec.stdin !== null && child.stdin) {
      child.stdin.on("error", () => {
        /* the CLI exited before reading it all */
      });
      child.stdin.end(spec.stdin);
    }
    child.stdout!.setEncoding("utf8").on("data", (text: string) => onOutput("stdout", text));
    child.stderr!.setEncoding("utf8").on("data", (text: string) => onOutput("stderr", text));
    const timer = spec.timeoutSec > 0 ? setTimeout(() => kill("timeout"), spec.timeoutSec * 1000) : null;
    let settled = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      resolve(exit({ exitCode: code, signal, timedOut: ended === "timeout", stopped: ended === "stop" }));
    };
    child.on("error", (err) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      resolve(exit({ spawnError: err.message }));
    });
    child.on("exit", (code, signal) => {
      setTimeout(() => {
        killGroup("SIGTERM");
        setTimeout(() => finish(code, signal), DRAIN_MS);
      }, DRAIN_MS);
    });
    child.on("close", (code, signal) => finish(code, signal));
  });
  function killGroup(signal: NodeJS.Signals) {
    if (!child?.pid) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  }
  function kill(reason: "timeout" | "cancel" | "stop") {
    if (!child?.pid || ended) return;
    ended = reason;
    killGroup("SIGTERM");
    setTimeout(() => killGroup("SIGKILL"), spec.graceSec * 1000).unref();
  }
  return { done, cancel: () => kill("cancel"), stop: () => kill("stop") };
}

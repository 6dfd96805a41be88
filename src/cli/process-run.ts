// Runs one `process` run: the configured command with the run's environment (src/cli/child.ts), its
// output streamed as the run's log, the exit code mapped to the run's status, the last stdout line
// as its summary. (`<runtime>_local` runs: src/cli/local-run.ts.)
import type { RunStart } from "../protocol/runner";
import { spawnChild } from "./child";
import { processEnvironment } from "./runtimes/environment";
import type { RunOutcome, RunOutput, RunningRun } from "./run-output";

const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** The command line of a `process` run. */
export function commandLine(start: Pick<RunStart, "adapterConfig">): { command: string; args: string[] } {
  return { command: String(start.adapterConfig.command ?? ""), args: strings(start.adapterConfig.args) };
}

export function startProcess(start: RunStart, output: RunOutput): RunningRun {
  const { command, args } = commandLine(start);
  const config = start.adapterConfig;
  const timeoutSec = typeof config.timeoutSec === "number" && config.timeoutSec > 0 ? config.timeoutSec : 0;
  const graceSec = typeof config.graceSec === "number" && config.graceSec >= 0 ? config.graceSec : 15;
  if (!command)
    return { done: Promise.resolve({ status: "failed", exitCode: null, summary: null, error: "adapterConfig.command is empty" }), cancel: () => {} };
  let lastLine = "";
  const child = spawnChild(
    { command, args, cwd: typeof config.cwd === "string" ? config.cwd : undefined, env: processEnvironment(start), stdin: null, timeoutSec, graceSec },
    (stream, text) => {
      if (stream === "stdout") {
        const lines = text
          .split("\n")
          .map((l) => l.trim())
          .filter(Boolean);
        if (lines.length) lastLine = lines[lines.length - 1];
      }
      output.log(stream, text);
    },
  );
  const done = child.done.then((exit): RunOutcome => {
    const summary = lastLine.slice(0, 1000) || null;
    if (exit.spawnError) return { status: "failed", exitCode: null, summary: null, error: `Could not start ${command}: ${exit.spawnError}` };
    if (exit.timedOut) return { status: "timed_out", exitCode: exit.exitCode, summary, error: `Killed after ${timeoutSec} s (timeoutSec)` };
    if (exit.exitCode === 0) return { status: "succeeded", exitCode: 0, summary };
    return {
      status: "failed",
      exitCode: exit.exitCode,
      summary,
      error: exit.signal ? `The process was killed by ${exit.signal}` : `The process exited with code ${exit.exitCode}`,
    };
  });
  return { done, cancel: child.cancel };
}

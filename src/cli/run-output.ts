// Between a run's executor (src/cli/process-run.ts, src/cli/local-run.ts) and the runner's
// connection (src/cli/runner.ts): the output a run produces as it goes, and its outcome.
import type { RunComplete } from "../protocol/runner";
import type { TranscriptEvent } from "./runtimes/types";

export interface RunOutput {
  /** Raw output of the child (kept as the run's log). */
  log(stream: "stdout" | "stderr", text: string): void;
  /** Transcript entries parsed from it, and the runner's own notes. */
  events(events: TranscriptEvent[]): void;
}

/** What run.complete reports (without its type and run id). */
export type RunOutcome = Omit<RunComplete, "type" | "runId">;

export interface RunningRun {
  done: Promise<RunOutcome>;
  cancel(): void;
}

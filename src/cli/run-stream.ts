// A run's output on its way to the service: raw output (the log, in chunks) and transcript entries,
// sent together as run.events every FLUSH_MS (or sooner when a batch fills). A run of any length is
// kept at both ends: the first HEAD_* of it streams as it comes; past that only the last TAIL_* is
// kept and sent when the run ends, with a note of what was left out between.
import type { RunEventKind, RunnerToService } from "../protocol/runner";
import type { TranscriptEvent } from "./runtimes/types";
import type { RunOutput } from "./run-output";

export const FLUSH_MS = 200;
/** Raw output goes in log events of at most this many characters. */
export const CHUNK_CHARS = 8 * 1024;
const MAX_BATCH_EVENTS = 200;
const MAX_BATCH_CHARS = 192 * 1024;
export const HEAD_LOG_CHARS = 2 * 1024 * 1024;
export const TAIL_LOG_CHARS = 256 * 1024;
export const HEAD_EVENTS = 2000;
export const TAIL_EVENTS = 300;

interface Pending {
  kind: RunEventKind;
  message: string;
  data?: unknown;
}

export class RunStream implements RunOutput {
  private pending: Pending[] = [];
  private pendingChars = 0;
  private partial = { stdout: "", stderr: "" };
  private timer: ReturnType<typeof setTimeout> | null = null;
  private logSent = 0;
  private logTail: Array<{ stream: "stdout" | "stderr"; text: string }> = [];
  private logTailChars = 0;
  private logDropped = 0;
  private eventsSent = 0;
  private eventTail: Pending[] = [];
  private eventsDropped = 0;

  constructor(
    private readonly runId: string,
    private readonly send: (message: RunnerToService) => void,
  ) {}

  log(stream: "stdout" | "stderr", text: string): void {
    if (this.logSent >= HEAD_LOG_CHARS) {
      this.logTail.push({ stream, text });
      this.logTailChars += text.length;
      while (this.logTailChars > TAIL_LOG_CHARS && this.logTail.length > 1) {
        const dropped = this.logTail.shift()!;
        this.logTailChars -= dropped.text.length;
        this.logDropped += dropped.text.length;
      }
      return;
    }
    this.logSent += text.length;
    this.partial[stream] += text;
    if (this.partial[stream].length >= CHUNK_CHARS) this.cutLog(stream);
    this.schedule();
  }

  events(events: TranscriptEvent[]): void {
    for (const event of events) {
      if (this.eventsSent >= HEAD_EVENTS) {
        this.eventTail.push(event);
        if (this.eventTail.length > TAIL_EVENTS) {
          this.eventTail.shift();
          this.eventsDropped++;
        }
        continue;
      }
      this.eventsSent++;
      this.queue(event);
    }
    this.schedule();
  }

  /** Sends what is buffered now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.cutLog("stdout");
    this.cutLog("stderr");
    this.sendBatch();
  }

  /** The run ended: what is buffered, the kept tail, and what was left out. */
  finish(): void {
    this.flush();
    if (this.logDropped || this.logTail.length) {
      if (this.logDropped)
        this.queue({
          kind: "status",
          message: `${this.logDropped} characters of output left out of the log (its first ${HEAD_LOG_CHARS} and last ${TAIL_LOG_CHARS} are kept)`,
        });
      for (const { stream, text } of this.logTail)
        for (let at = 0; at < text.length; at += CHUNK_CHARS) this.queue({ kind: "log", message: text.slice(at, at + CHUNK_CHARS), data: { stream } });
    }
    if (this.eventsDropped)
      this.queue({ kind: "status", message: `${this.eventsDropped} transcript entries left out (the first ${HEAD_EVENTS} and last ${TAIL_EVENTS} are kept)` });
    for (const event of this.eventTail) this.queue(event);
    this.logTail = [];
    this.eventTail = [];
    this.sendBatch();
  }

  private cutLog(stream: "stdout" | "stderr") {
    const text = this.partial[stream];
    this.partial[stream] = "";
    for (let at = 0; at < text.length; at += CHUNK_CHARS) this.queue({ kind: "log", message: text.slice(at, at + CHUNK_CHARS), data: { stream } });
  }

  private queue(event: Pending) {
    const message = event.message.length > 60_000 ? `${event.message.slice(0, 60_000)}…` : event.message;
    this.pending.push({ ...event, message });
    this.pendingChars += message.length;
    if (this.pending.length >= MAX_BATCH_EVENTS || this.pendingChars >= MAX_BATCH_CHARS) this.sendBatch();
  }

  private sendBatch() {
    while (this.pending.length) {
      const batch = this.pending.splice(0, MAX_BATCH_EVENTS);
      this.send({
        type: "run.events",
        runId: this.runId,
        events: batch.map((e) => ({ kind: e.kind, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) })),
      });
    }
    this.pendingChars = 0;
  }

  private schedule() {
    if (!this.timer && (this.pending.length || this.partial.stdout || this.partial.stderr)) this.timer = setTimeout(() => this.flush(), FLUSH_MS);
  }
}

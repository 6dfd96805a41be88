// The agent loop's journal, in its object's own SQLite: the loop's state (one row), the
// conversation (one row per message, appended) and the current turn's tool calls (pending, started,
// done with their result). Written before and after every effect, so an evicted object resumes
// from the last step it finished and a tool call found `started` is sent again with the same
// Idempotency-Key (the service answers it with the first response). Writes go through
// failableSql: a test can fail the N-th write to a table (src/db/faults.ts).
import type { ToolCall, ToolResultMessage, TurnMessage } from "../../adapters/llm-api/turns";
import type { RunUsage } from "../../adapters/types";
import { failableSql } from "../storage";
import { migrateObjectStorage } from "../object-scaffolding";

const STEPS: readonly (readonly string[])[] = [
  [
    "CREATE TABLE IF NOT EXISTS loop_state (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS loop_messages (seq INTEGER PRIMARY KEY, message TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS loop_calls (idx INTEGER PRIMARY KEY, call TEXT NOT NULL, state TEXT NOT NULL, result TEXT)",
  ],
];

export type LoopPhase = "start" | "model" | "tools" | "done";

/** What a run's loop is started with (src/company/runs/attempts/loop.ts → AgentLoopObject.start). */
export interface LoopSpec {
  companyId: string;
  runId: string;
  agentId: string;
  issueId: string | null;
  adapterType: string;
  /** The agent's stored adapterConfig at the run's start. */
  adapterConfig: Record<string, unknown>;
  /** The wake's prompt (the service's one prompt builder) and the conversation to continue (an R2 key), if any. */
  prompt: string;
  resume: { key: string } | null;
  /** Where the conversation is kept for the agent's next wake on this task. */
  conversationKey: string;
  taskKey: string;
  /** The run's deadline (ms since the epoch): timeoutSec from the start. */
  deadline: number;
}

/** Everything the loop needs to go on after an eviction (the apiKey stays a secret reference). */
export interface LoopState extends LoopSpec {
  phase: LoopPhase;
  /** Model calls made. */
  turn: number;
  /** Retries of the current model call. */
  attempt: number;
  /** Turns in a row whose tool calls had unusable arguments. */
  badArgTurns: number;
  compacted: boolean;
  /** Unexpected step failures in a row (the object re-arms; too many end the run). */
  crashes: number;
  totals: { inputTokens: number; cachedInputTokens: number; outputTokens: number; micros: number };
  /** Micro-dollars not yet reported as whole cents (carried from call to call). */
  unbilledMicros: number;
  /** The last model call's usage, not yet reported (it goes with the next report: a cost event). */
  pendingUsage: RunUsage | null;
  /** When the next step is due (ms), for diagnostics. */
  nextStepAt: number | null;
  summary: string | null;
  cancelled: boolean;
  done: boolean;
}

export interface JournaledCall {
  idx: number;
  call: ToolCall;
  state: "pending" | "started" | "done";
  result: ToolResultMessage | null;
}

export class LoopJournal {
  private readonly sql: SqlStorage;

  constructor(storage: DurableObjectStorage, faultsEnabled: boolean) {
    migrateObjectStorage(storage.sql, STEPS);
    this.sql = faultsEnabled ? failableSql(storage.sql) : storage.sql;
  }

  state(): LoopState | null {
    const row = this.sql.exec<{ state: string }>("SELECT state FROM loop_state WHERE id = 1").toArray()[0];
    return row ? (JSON.parse(row.state) as LoopState) : null;
  }

  saveState(state: LoopState): void {
    this.sql.exec("INSERT INTO loop_state (id, state) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET state = excluded.state", JSON.stringify(state));
  }

  messages(): TurnMessage[] {
    return this.sql
      .exec<{ message: string }>("SELECT message FROM loop_messages ORDER BY seq")
      .toArray()
      .map((r) => JSON.parse(r.message) as TurnMessage);
  }

  append(...messages: TurnMessage[]): void {
    for (const m of messages) this.sql.exec("INSERT INTO loop_messages (message) VALUES (?)", JSON.stringify(m));
  }

  calls(): JournaledCall[] {
    return this.sql
      .exec<{ idx: number; call: string; state: JournaledCall["state"]; result: string | null }>("SELECT idx, call, state, result FROM loop_calls ORDER BY idx")
      .toArray()
      .map((r) => ({ idx: Number(r.idx), call: JSON.parse(r.call), state: r.state, result: r.result ? JSON.parse(r.result) : null }));
  }

  setCalls(calls: ToolCall[]): void {
    this.sql.exec("DELETE FROM loop_calls");
    calls.forEach((call, idx) => this.sql.exec("INSERT INTO loop_calls (idx, call, state) VALUES (?, ?, 'pending')", idx, JSON.stringify(call)));
  }

  markStarted(idx: number): void {
    this.sql.exec("UPDATE loop_calls SET state = 'started' WHERE idx = ?", idx);
  }

  markDone(idx: number, result: ToolResultMessage): void {
    this.sql.exec("UPDATE loop_calls SET state = 'done', result = ? WHERE idx = ?", JSON.stringify(result), idx);
  }

  clearCalls(): void {
    this.sql.exec("DELETE FROM loop_calls");
  }

  /** Several writes as one (the object's storage transaction). */
  transaction(storage: DurableObjectStorage, fn: () => void): void {
    storage.transactionSync(fn);
  }
}

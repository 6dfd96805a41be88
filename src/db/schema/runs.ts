// Heartbeat runs (an agent's unit of execution) and wake-up requests (the per-company queue of
// reasons to run an agent, drained by the company Durable Object).
import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";
import { RUN_EVENT_KINDS } from "../../protocol/runner";

/**
 * Why an agent wakes (a wake-up's and its run's `reason`). A manual wake-up may carry the caller's
 * own text instead (its run's invocation source is then `on_demand`).
 */
export const WAKE_REASONS = [
  "assignment",
  "comment",
  "mention",
  "approval_resolved",
  "question_answered",
  "routine",
  "on_demand",
  "timer",
  "blocker_resolved",
] as const;
export type WakeReason = (typeof WAKE_REASONS)[number];

/** Why a wake-up was skipped (or a queued run cancelled): the dispatcher's decisions (src/domain/runs/dispatch.ts). */
export const WAKE_SKIP_REASONS = ["company.inactive", "budget.blocked", "agent.not_invokable", "rate_limited"] as const;
export type WakeSkipReason = (typeof WAKE_SKIP_REASONS)[number];

/**
 * Why a run did not succeed (`heartbeat_runs.error_code`): one list for every adapter and path. The
 * codes a runner may report are `RUNNER_ERROR_CODES` (src/protocol/runner.ts, which the CLI bundles
 * and so cannot import this file); test/unit/runner-protocol.test.ts keeps them a subset of these.
 */
export const RUN_ERROR_CODES = [
  // Any adapter.
  "timeout",
  "cancelled",
  "interrupted",
  "budget_blocked",
  "company_inactive",
  "agent_paused",
  "agent_terminated",
  "completion_timeout",
  // The agent's own answer (POST …/complete with status failed).
  "agent_failed",
  // Model or CLI outcomes (the local runtimes on runners, the edge agent).
  "auth_required",
  "provider_rate_limited",
  "max_turns",
  "context_length",
  "content_filtered",
  "model_not_found",
  // The edge agent's model provider (src/adapters/llm-api): quota or spend limit gone (never
  // retried), unavailable after its retries, and a model that kept calling tools with bad arguments.
  "provider_quota",
  "provider_unavailable",
  "tool_args_invalid",
  // Runners.
  "process_lost",
  "process_failed",
  // The http adapter and any adapter refusing or failing to invoke.
  "adapter_failed",
  "adapter_unreachable",
  "adapter_refused",
  "adapter_unavailable",
  // The remote gateway.
  "gateway_create_failed",
  "gateway_failed",
  "gateway_cancelled",
  // A queued run its agent could not start (the wake-up's skip reason).
  ...WAKE_SKIP_REASONS,
] as const;
export type RunErrorCode = (typeof RUN_ERROR_CODES)[number];

export const HEARTBEAT_RUN_STATUSES = ["queued", "scheduled_retry", "running", "succeeded", "failed", "cancelled", "timed_out"] as const;
/** Live runs hold locks; the rest are finished. */
export const LIVE_RUN_STATUSES = ["queued", "running", "scheduled_retry"] as const;

export const heartbeatRuns = sqliteTable(
  "heartbeat_runs",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    agentId: text("agent_id").notNull(),
    status: text("status", { enum: HEARTBEAT_RUN_STATUSES }).notNull(),
    adapterType: text("adapter_type").notNull(),
    /** `timer`, `assignment`, `on_demand`, `automation`, `external` (a run id first seen from an agent). */
    invocationSource: text("invocation_source").notNull(),
    wakeupRequestId: text("wakeup_request_id"),
    startedAt: text("started_at"),
    finishedAt: text("finished_at"),
    /** Last time the run was seen doing anything; a live run idle past the lease counts as timed out. */
    lastActivityAt: text("last_activity_at"),
    usageJson: text("usage_json", { mode: "json" }).$type<Record<string, unknown> | null>(),
    resultJson: text("result_json", { mode: "json" }).$type<Record<string, unknown> | null>(),
    error: text("error"),
    logBytes: integer("log_bytes").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The issue the run is about (null when none). */
    issueId: text("issue_id"),
    /** The wake reason: `assignment`, `comment`, `mention`, `blocker_resolved`, `approval_resolved`, `routine`, `timer`, `on_demand`. */
    reason: text("reason"),
    /** Wake context handed to the agent: wakeReason, issueId, commentId(s), approvalId, approvalStatus, payload, ... */
    context: text("context", { mode: "json" }).$type<Record<string, unknown> | null>(),
    errorCode: text("error_code", { enum: RUN_ERROR_CODES }),
    summary: text("summary"),
    retryCount: integer("retry_count").notNull().default(0),
    nextRetryAt: text("next_retry_at"),
    /** When a run the endpoint accepted with 202 times out unless the agent completes it. */
    deadlineAt: text("deadline_at"),
    idempotencyKey: text("idempotency_key"),
  },
  (t) => [
    index("heartbeat_runs_company_agent_idx").on(t.companyId, t.agentId, t.status),
    uniqueIndex("heartbeat_runs_idempotency_uq").on(t.agentId, t.idempotencyKey).where(sql`${t.idempotencyKey} IS NOT NULL`),
    index("heartbeat_runs_company_created_idx").on(t.companyId, t.createdAt, t.id),
    index("heartbeat_runs_finished_idx").on(t.finishedAt),
  ],
);

/** A run's ordered event log (agents post log/progress lines; the service adds status changes). */
export const heartbeatRunEvents = sqliteTable(
  "heartbeat_run_events",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    runId: text("run_id")
      .notNull()
      .references(() => heartbeatRuns.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    kind: text("kind", { enum: RUN_EVENT_KINDS }).notNull(),
    message: text("message"),
    data: text("data", { mode: "json" }).$type<unknown>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("heartbeat_run_events_run_seq_uq").on(t.runId, t.seq)],
);

export const WAKEUP_STATUSES = ["queued", "deferred_issue_execution", "claimed", "coalesced", "skipped", "completed", "failed", "cancelled"] as const;
/** Wake-ups still waiting to be served; these are what pauses, terminations and hard stops cancel. */
export const PENDING_WAKEUP_STATUSES = ["queued", "deferred_issue_execution"] as const;

export const agentWakeupRequests = sqliteTable(
  "agent_wakeup_requests",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    agentId: text("agent_id").notNull(),
    status: text("status", { enum: WAKEUP_STATUSES }).notNull(),
    /** Why: `comment`, `mention`, `blocker_resolved`, `approval_resolved`, `assignment`, `routine`, ... */
    reason: text("reason").notNull(),
    /** What asked: `issue_comment`, `approval`, `routine`, `manual`, ... */
    source: text("source").notNull(),
    issueId: text("issue_id"),
    /** Context handed to the run, e.g. { commentId } or { env: { SERVICE_APPROVAL_ID, SERVICE_APPROVAL_STATUS } }. */
    context: text("context", { mode: "json" }).$type<Record<string, unknown> | null>(),
    runId: text("run_id"),
    coalescedIntoRunId: text("coalesced_into_run_id"),
    requestedByActorType: text("requested_by_actor_type"),
    requestedByActorId: text("requested_by_actor_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Why a wake-up ended `skipped` (or `cancelled`): `agent.not_invokable`, `company.inactive`, `budget.blocked`, `rate_limited`, ... */
    skipReason: text("skip_reason"),
  },
  (t) => [
    index("agent_wakeup_requests_company_status_idx").on(t.companyId, t.status),
    index("agent_wakeup_requests_agent_idx").on(t.agentId, t.status),
    index("agent_wakeup_requests_updated_idx").on(t.status, t.updatedAt),
  ],
);

/**
 * The runtime sessions an agent's runs resume (a CLI's session id, the edge agent's conversation),
 * one per agent and task: `issue:<id>`, or `agent` for runs without an issue. `params` says what the
 * session is valid for (cwd, model, …); a run with other values starts a new one. The board clears
 * them (POST /api/agents/{agentId}/runtime-state/reset-session).
 */
export const agentRuntimeSessions = sqliteTable(
  "agent_runtime_sessions",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    agentId: text("agent_id").notNull(),
    /** The adapter that made it (another adapter does not resume it). */
    adapterType: text("adapter_type").notNull(),
    taskKey: text("task_key").notNull(),
    sessionId: text("session_id").notNull(),
    params: text("params", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** The run that reported it last. */
    runId: text("run_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("agent_runtime_sessions_agent_task_uq").on(t.agentId, t.taskKey), index("agent_runtime_sessions_company_idx").on(t.companyId, t.agentId)],
);

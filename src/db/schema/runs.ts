// Heartbeat runs (an agent's unit of execution) and wake-up requests (the per-company queue of
// reasons to run an agent, drained by the company Durable Object).
import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { companies } from "./companies";

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
    errorCode: text("error_code"),
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

export const RUN_EVENT_KINDS = ["log", "progress", "status"] as const;

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

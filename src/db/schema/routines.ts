// Routines: recurring or externally triggered work. A routine has triggers (schedule, webhook,
// api); each firing is a routine run that creates (or coalesces into, or skips) an execution issue.
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { createdAt, json, timestamp, updatedAt, bool } from "./columns";
import { companies } from "./companies";
import { ISSUE_PRIORITIES } from "./issues";

export const ROUTINE_STATUSES = ["active", "paused", "archived"] as const;
export const CONCURRENCY_POLICIES = ["coalesce_if_active", "always_enqueue", "skip_if_active"] as const;
export const CATCH_UP_POLICIES = ["skip_missed", "enqueue_missed_with_cap"] as const;
export const TRIGGER_KINDS = ["schedule", "webhook", "api"] as const;
export const SIGNING_MODES = ["bearer", "hmac_sha256", "vendor_hmac", "none"] as const;
export type SigningMode = (typeof SIGNING_MODES)[number];
export const ROUTINE_RUN_STATUSES = ["received", "coalesced", "skipped", "issue_created", "completed", "failed"] as const;
export const ROUTINE_RUN_SOURCES = ["schedule", "webhook", "manual", "api"] as const;
export const VARIABLE_TYPES = ["text", "textarea", "number", "boolean"] as const;

export interface RoutineVariable {
  name: string;
  label?: string | null;
  type: string;
  required: boolean;
  defaultValue?: string | number | boolean | null;
}

export const routines = sqliteTable(
  "routines",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description"),
    assigneeAgentId: text("assignee_agent_id"),
    projectId: text("project_id"),
    goalId: text("goal_id"),
    parentIssueId: text("parent_issue_id"),
    priority: text("priority", { enum: ISSUE_PRIORITIES }).notNull(),
    status: text("status", { enum: ROUTINE_STATUSES }).notNull(),
    concurrencyPolicy: text("concurrency_policy", { enum: CONCURRENCY_POLICIES }).notNull(),
    catchUpPolicy: text("catch_up_policy", { enum: CATCH_UP_POLICIES }).notNull(),
    variables: json<RoutineVariable[]>("variables").notNull(),
    createdByAgentId: text("created_by_agent_id"),
    createdByUserId: text("created_by_user_id"),
    lastTriggeredAt: timestamp("last_triggered_at"),
    /** Bumped by every change to the routine or its triggers: a fire or update decided on an older version is decided again. */
    version: integer("version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("routines_company_updated_idx").on(t.companyId, t.updatedAt), index("routines_assignee_idx").on(t.assigneeAgentId)],
);

export const routineTriggers = sqliteTable(
  "routine_triggers",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    routineId: text("routine_id")
      .notNull()
      .references(() => routines.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: TRIGGER_KINDS }).notNull(),
    label: text("label"),
    enabled: bool("enabled").notNull(),
    cronExpression: text("cron_expression"),
    timezone: text("timezone"),
    /** Next due slot (UTC ISO) of an enabled schedule trigger; null otherwise. The tick's index. */
    nextRunAt: timestamp("next_run_at"),
    lastFiredAt: timestamp("last_fired_at"),
    /** Webhook: the unguessable id in the public URL. */
    publicId: text("public_id"),
    signingMode: text("signing_mode", { enum: SIGNING_MODES }),
    replayWindowSec: integer("replay_window_sec"),
    /** Webhook: the secret, encrypted with the secrets master key (never returned after creation or rotation). */
    secretCiphertext: text("secret_ciphertext"),
    /** Bumped by every rotation: a fire decided on an older secret is refused. */
    secretVersion: integer("secret_version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("routine_triggers_routine_idx").on(t.routineId),
    uniqueIndex("routine_triggers_public_id_uq").on(t.publicId).where(sql`${t.publicId} IS NOT NULL`),
    index("routine_triggers_due_idx").on(t.nextRunAt).where(sql`${t.nextRunAt} IS NOT NULL`),
  ],
);

export const routineRuns = sqliteTable(
  "routine_runs",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    routineId: text("routine_id")
      .notNull()
      .references(() => routines.id, { onDelete: "cascade" }),
    triggerId: text("trigger_id"),
    source: text("source", { enum: ROUTINE_RUN_SOURCES }).notNull(),
    status: text("status", { enum: ROUTINE_RUN_STATUSES }).notNull(),
    triggerPayload: json<unknown>("trigger_payload"),
    variables: json<Record<string, unknown>>("variables"),
    linkedIssueId: text("linked_issue_id"),
    coalescedIntoRunId: text("coalesced_into_run_id"),
    failureReason: text("failure_reason"),
    idempotencyKey: text("idempotency_key"),
    completedAt: timestamp("completed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("routine_runs_routine_created_idx").on(t.routineId, t.createdAt),
    index("routine_runs_linked_issue_idx").on(t.linkedIssueId).where(sql`${t.linkedIssueId} IS NOT NULL`),
    uniqueIndex("routine_runs_idempotency_uq").on(t.routineId, t.idempotencyKey).where(sql`${t.idempotencyKey} IS NOT NULL`),
  ],
);

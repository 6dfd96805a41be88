// Instance schemas: settings (general, experimental), scheduler heartbeats, liveness recovery, backups.
import { z } from "@hono/zod-openapi";
import { Timestamp, Uuid } from "./common";

// The stored settings' shapes live with the settings (src/domain/instance/settings-shapes.ts).
export { ExperimentalSettingsSchema, GeneralSettingsSchema } from "../domain/instance/settings-shapes";

const atLeastOne = (v: Record<string, unknown>) => Object.values(v).some((x) => x !== undefined);

export const PatchGeneralSettingsSchema = z
  .object({
    instanceName: z.string().trim().min(1).max(100).optional(),
    supportEmail: z.string().email().max(320).nullable().optional(),
    defaultInviteExpiryHours: z.number().int().min(1).max(720).optional(),
    backupRetentionCount: z.number().int().min(1).max(100).optional(),
  })
  .strict()
  .refine(atLeastOne, "Give at least one setting to change")
  .openapi("PatchGeneralSettings");

export const PatchExperimentalSettingsSchema = z
  .object({
    issueGraphLivenessAutoRecovery: z.boolean().optional(),
    issueGraphLivenessStaleAfterMinutes: z.number().int().min(1).max(10_080).optional(),
  })
  .strict()
  .refine(atLeastOne, "Give at least one setting to change")
  .openapi("PatchExperimentalSettings");

export const SchedulerHeartbeatSchema = z.object({ name: z.string(), lastTickAt: Timestamp, tickCount: z.number().int() }).openapi("SchedulerHeartbeat");

export const LivenessRecoveryRequestSchema = z
  .object({
    companyId: Uuid.optional().openapi({ description: "Limit to one company (default: every company)" }),
    staleAfterMinutes: z
      .number()
      .int()
      .min(1)
      .max(10_080)
      .optional()
      .openapi({ description: "A live checkout run idle this long counts as stuck (default: the experimental setting, 60)" }),
  })
  .strict()
  .openapi("LivenessRecoveryRequest");

export const StuckIssueSchema = z
  .object({
    issueId: z.string(),
    companyId: z.string(),
    identifier: z.string(),
    title: z.string(),
    assigneeAgentId: z.string().nullable(),
    checkoutRunId: z.string(),
    runStatus: z.string().nullable().openapi({ description: "Status of the checkout run; null when the run is missing" }),
    reason: z.enum(["run_missing", "run_finished", "run_idle"]),
    lastActivityAt: z.string().nullable(),
  })
  .openapi("StuckIssue");

export const LivenessRecoveryResultSchema = z
  .object({
    dryRun: z.boolean(),
    staleAfterMinutes: z.number().int(),
    staleBefore: Timestamp,
    issues: z.array(StuckIssueSchema),
    recoveredCount: z.number().int().openapi({ description: "Issues released to todo (0 for a preview)" }),
  })
  .openapi("LivenessRecoveryResult");

export const DatabaseBackupSchema = z
  .object({
    backupDirectory: z.string().openapi({ example: "backups/2026-11-21T09-30-00-000Z/" }),
    retentionPolicy: z.object({
      keepLast: z.number().int(),
      deletedBackups: z.array(z.string()),
      description: z.string(),
    }),
    startedAt: Timestamp,
    finishedAt: Timestamp,
    durationMs: z.number().int(),
    tables: z.array(
      z.object({
        name: z.string(),
        /** The database the table was read from: the directory `DB` or a company shard `DB_SHARD_<n>`. */
        database: z.string(),
        rows: z.number().int(),
        objectKey: z.string(),
      }),
    ),
  })
  .openapi("DatabaseBackup");

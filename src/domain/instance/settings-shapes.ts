// The instance settings as stored (and answered): each key's fields with their defaults. Reads fill
// defaults from these (settings.ts); the API documents them (src/schemas/instance.ts).
import { z } from "@hono/zod-openapi";

export const GeneralSettingsSchema = z
  .object({
    instanceName: z.string().trim().min(1).max(100).default("Agent Control Plane"),
    supportEmail: z.string().email().max(320).nullable().default(null),
    defaultInviteExpiryHours: z
      .number()
      .int()
      .min(1)
      .max(720)
      .default(168)
      .openapi({ description: "Expiry of new invites when the request gives none (hours; default 7 days)" }),
    backupRetentionCount: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(7)
      .openapi({ description: "Database backups kept in R2; older backup folders are deleted after each backup" }),
  })
  .strict()
  .openapi("GeneralSettings");

export const ExperimentalSettingsSchema = z
  .object({
    issueGraphLivenessAutoRecovery: z
      .boolean()
      .default(false)
      .openapi({ description: "When true the per-minute cron releases stuck in_progress issues (see .../issue-graph-liveness-auto-recovery/run)" }),
    issueGraphLivenessStaleAfterMinutes: z
      .number()
      .int()
      .min(1)
      .max(10_080)
      .default(60)
      .openapi({ description: "A live checkout run idle this long counts as stuck" }),
  })
  .strict()
  .openapi("ExperimentalSettings");

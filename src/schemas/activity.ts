// Activity log schemas.
import { z } from "@hono/zod-openapi";
import { Timestamp } from "./common";
import { ACTOR_TYPES } from "../db/schema/activity";

export const ActivitySchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    actorType: z.enum(ACTOR_TYPES),
    actorId: z.string(),
    action: z.string(),
    entityType: z.string(),
    entityId: z.string(),
    agentId: z.string().nullable(),
    runId: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
    createdAt: Timestamp,
  })
  .openapi("ActivityRecord");

export const ActivityListQuery = z.object({
  agentId: z.string().optional(),
  entityType: z.string().optional(),
  entityId: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(500).optional().openapi({ description: "The newest `limit` entries (after `cursor` when given)" }),
  cursor: z.string().min(1).max(200).optional().openapi({ description: "The previous response's X-Next-Cursor header" }),
});

export const CreateActivitySchema = z
  .object({
    actorType: z.enum(ACTOR_TYPES).default("system"),
    actorId: z.string().trim().min(1).max(200),
    action: z.string().trim().min(1).max(200),
    entityType: z.string().trim().min(1).max(100),
    entityId: z.string().trim().min(1).max(200),
    agentId: z.string().uuid().nullable().optional(),
    details: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .refine((d) => d == null || JSON.stringify(d).length <= 64 * 1024, "details must serialise to at most 64 KiB"),
  })
  .openapi("CreateActivity");

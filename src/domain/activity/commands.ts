// Board-written activity entries (POST /api/companies/{id}/activity).
import { defineCommand } from "../../company/command";
import { schema } from "../../db/client";
import type { ACTOR_TYPES } from "../../db/schema/activity";
import { newId } from "../../crypto/random";
import { redactSecrets } from "../redaction";

export interface ManualActivityInput {
  actorType: (typeof ACTOR_TYPES)[number];
  actorId: string;
  action: string;
  entityType: string;
  entityId: string;
  agentId: string | null;
  details: Record<string, unknown> | null;
}

export const recordActivity = defineCommand("activity.record", async (ctx, actor, input: ManualActivityInput) => {
  const row = {
    id: newId(),
    companyId: ctx.companyId,
    actorType: input.actorType,
    actorId: input.actorId,
    action: input.action,
    entityType: input.entityType,
    entityId: input.entityId,
    agentId: input.agentId,
    runId: actor.runId ?? null,
    details: input.details ? redactSecrets(input.details) : null,
    createdAt: ctx.now,
  };
  // The entry's actor is given explicitly (not the caller), so this is not ctx.activity(); the response is the row written.
  await ctx.batch([ctx.db.insert(schema.activityLog).values(row)]);
  return row;
});

export const activityCommands = [recordActivity];

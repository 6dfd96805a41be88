// The operation row every wiki write (and every query session) records in its batch.
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import { newId } from "../../crypto/random";
import { actorRef, type Actor } from "../actor";
import type { WIKI_OPERATION_STATUSES, WIKI_OPERATION_TYPES } from "../../db/schema/plugins";
import type { OperationRow } from "./view";

export interface OperationFields {
  wikiId: string;
  spaceId: string | null;
  operationType: (typeof WIKI_OPERATION_TYPES)[number];
  status?: (typeof WIKI_OPERATION_STATUSES)[number];
  summary?: string | null;
  details?: Record<string, unknown> | null;
  issueId?: string | null;
}

/** A new operation row (succeeded unless said otherwise) and its insert. */
export function operationInsert(ctx: CommandContext, actor: Actor, fields: OperationFields) {
  const { actorType, actorId } = actorRef(actor);
  const row: OperationRow = {
    id: newId(),
    companyId: ctx.companyId,
    wikiId: fields.wikiId,
    spaceId: fields.spaceId,
    operationType: fields.operationType,
    status: fields.status ?? "succeeded",
    summary: fields.summary ?? null,
    details: fields.details ?? null,
    issueId: fields.issueId ?? null,
    runId: actor.runId ?? null,
    actorType,
    actorId,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  return { row, statement: ctx.db.insert(schema.wikiOperations).values(row) };
}

/** Who wrote a revision or captured a source. */
export const authorColumns = (actor: Actor) => ({
  createdByAgentId: actor.type === "agent" ? actor.agentId : null,
  createdByUserId: actor.type === "board" ? actor.userId : null,
});

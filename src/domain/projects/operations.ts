// Workspace operation records (runtime services and commands), shared by project and execution workspaces.
import { schema } from "../../db/client";
import type { CommandContext } from "../../company/command";
import { actorRef, type Actor } from "../actor";
import { newId } from "../../crypto/random";
import { redactSecrets } from "../redaction";
import type { OperationRow } from "./view";

export interface OperationInput {
  projectWorkspaceId?: string | null;
  executionWorkspaceId?: string | null;
  kind: OperationRow["kind"];
  action: string;
  target?: string | null;
  args?: string[] | null;
  env?: Record<string, string> | null;
  status: OperationRow["status"];
  result?: Record<string, unknown> | null;
}

export function operationRow(ctx: CommandContext, actor: Actor, input: OperationInput): OperationRow {
  const { actorType, actorId } = actorRef(actor);
  return {
    id: newId(),
    companyId: ctx.companyId,
    projectWorkspaceId: input.projectWorkspaceId ?? null,
    executionWorkspaceId: input.executionWorkspaceId ?? null,
    kind: input.kind,
    action: input.action,
    target: input.target ?? null,
    args: input.args ?? null,
    env: input.env ? redactSecrets(input.env) : null,
    status: input.status,
    result: input.result ?? null,
    requestedByActorType: actorType,
    requestedByActorId: actorId,
    runId: actor.runId ?? null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
}

export const operationInsert = (ctx: CommandContext, row: OperationRow) => ctx.db.insert(schema.workspaceOperations).values(row);

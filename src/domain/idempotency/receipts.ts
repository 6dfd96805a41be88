// Idempotency-Key for mutations (agents' tool calls above all: a step retried after an eviction
// must never comment or create twice). A mutation made with a key writes a receipt in its own
// batch — the same transaction as the change, naming the entity it changed — and the receipt is
// completed with the response once the command returns. A replay of the same request (same caller,
// key, command and input) answers with that first response and changes nothing; the same key with
// another request is refused (422). Keyed per company and caller, kept 24 hours (the cron prunes).
import { and, eq, lt } from "drizzle-orm";
import type { Statement } from "../../db/batch";
import { schema, type Db } from "../../db/client";
import { sha256Hex } from "../../crypto/hash";
import { newId } from "../../crypto/random";
import { actorRef, type Actor } from "../actor";
import { HttpError, unprocessable } from "../errors";

export const RECEIPT_RETENTION_MS = 24 * 3600_000;

export interface IdempotencyRequest {
  key: string;
  caller: string;
  command: string;
  requestHash: string;
}

/** Canonical JSON (object keys sorted), so equal inputs hash equally whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(",")}}`;
  return JSON.stringify(value ?? null);
}

/** The request an Idempotency-Key names: its caller, its command and a hash of the command's input. */
export function idempotencyRequest(key: string, actor: Actor, command: string, input: unknown): IdempotencyRequest {
  const { actorType, actorId } = actorRef(actor);
  return { key, caller: `${actorType}:${actorId}`, command, requestHash: sha256Hex(`${command}\n${canonical(input)}`) };
}

/**
 * What a request with a key gets before its command runs: the first response (a replay), a 422
 * (the key was used for another request), a 409 (applied, but its response was not recorded: the
 * entity it changed is named), or null (a new request: run it).
 */
export async function replayOf(db: Db, companyId: string, request: IdempotencyRequest): Promise<{ value: unknown } | null> {
  const r = schema.commandReceipts;
  const [receipt] = await db
    .select()
    .from(r)
    .where(and(eq(r.companyId, companyId), eq(r.caller, request.caller), eq(r.key, request.key)));
  if (!receipt) return null;
  if (receipt.command !== request.command || receipt.requestHash !== request.requestHash)
    throw unprocessable("This Idempotency-Key was used for another request (another route or body); use a new key", { idempotencyKey: request.key });
  if (receipt.response === null || receipt.response === undefined)
    throw new HttpError(409, "This request was already applied, but its response was not recorded; read the resource it changed", {
      idempotencyKey: request.key,
      entityType: receipt.entityType,
      entityId: receipt.entityId,
    });
  return { value: receipt.response };
}

/** The receipt insert, for the mutation's own batch. */
export function receiptInsert(db: Db, companyId: string, request: IdempotencyRequest, entity: { type: string; id: string } | null, now: string): Statement {
  return db.insert(schema.commandReceipts).values({
    id: newId(),
    companyId,
    caller: request.caller,
    key: request.key,
    command: request.command,
    requestHash: request.requestHash,
    entityType: entity?.type ?? null,
    entityId: entity?.id ?? null,
    response: null,
    createdAt: now,
  });
}

/** Completes the receipt with the command's response. */
export function receiptResponse(db: Db, companyId: string, request: IdempotencyRequest, response: unknown) {
  const r = schema.commandReceipts;
  return db
    .update(r)
    .set({ response: response ?? {} })
    .where(and(eq(r.companyId, companyId), eq(r.caller, request.caller), eq(r.key, request.key)));
}

/** Receipts older than the retention go (the cron, per shard). */
export const pruneReceipts = (db: Db, now: Date) =>
  db.delete(schema.commandReceipts).where(lt(schema.commandReceipts.createdAt, new Date(now.getTime() - RECEIPT_RETENTION_MS).toISOString()));

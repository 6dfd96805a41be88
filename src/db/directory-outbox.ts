// The payloads the directory triggers write (migrations/0020_directory_shards.sql: json_object(…)
// per kind), read with a zod schema per kind: a trigger and its reader cannot drift silently — a
// payload that does not parse is an error naming the row, not a directory row with nulls.
import { z } from "zod";
import type { schema } from "./client";
import type { DIRECTORY_OUTBOX_KINDS } from "./schema/directory";
import { COMPANY_STATUSES } from "./schema/companies";
import { MEMBERSHIP_ROLES, MEMBERSHIP_STATUSES } from "./schema/access";
import { AGENT_STATUSES } from "./schema/agents";
import { PUBLIC_ID_KINDS } from "./schema/directory";

const publicId = z.object({ kind: z.enum(PUBLIC_ID_KINDS), publicId: z.string() });

export const OUTBOX_PAYLOADS = {
  company: z.object({ name: z.string(), issuePrefix: z.string(), status: z.enum(COMPANY_STATUSES), updatedAt: z.string().nullish() }),
  company_deleted: z.object({}),
  membership: z.object({ userId: z.string(), role: z.enum(MEMBERSHIP_ROLES), status: z.enum([...MEMBERSHIP_STATUSES, "deleted"]) }),
  agent_key: z.object({
    keyHash: z.string(),
    keyId: z.string(),
    agentId: z.string(),
    agentStatus: z.enum(AGENT_STATUSES).nullish(),
    revokedAt: z.string().nullish(),
  }),
  agent_key_deleted: z.object({ keyHash: z.string() }),
  agent_status: z.object({ agentId: z.string(), agentStatus: z.enum(AGENT_STATUSES) }),
  public_id: publicId,
  public_id_deleted: publicId,
} satisfies Record<(typeof DIRECTORY_OUTBOX_KINDS)[number], z.ZodType>;

type Payloads = typeof OUTBOX_PAYLOADS;
export type OutboxEntry = { [K in keyof Payloads]: { kind: K; companyId: string; payload: z.output<Payloads[K]> } }[keyof Payloads];

/** An outbox row with its payload parsed for its kind; throws naming the row when it does not parse. */
export function parseOutboxRow(row: typeof schema.directoryOutbox.$inferSelect): OutboxEntry {
  let json: unknown;
  try {
    json = JSON.parse(row.payload);
  } catch {
    throw new Error(`directory_outbox row ${row.seq} (${row.kind}): the payload is not JSON`);
  }
  const parsed = OUTBOX_PAYLOADS[row.kind].safeParse(json);
  if (!parsed.success)
    throw new Error(`directory_outbox row ${row.seq} (${row.kind}): ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return { kind: row.kind, companyId: row.companyId, payload: parsed.data } as OutboxEntry;
}

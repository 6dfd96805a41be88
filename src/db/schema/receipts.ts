// Receipts of mutations made with an `Idempotency-Key` (src/domain/idempotency/): one per company,
// caller and key, written in the mutation's own batch (with the entity it changed) and completed
// with the response, which a replay of the same request answers with. Kept 24 hours.
import { sqliteTable, text, uniqueIndex, index } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { companies } from "./companies";

export const commandReceipts = sqliteTable(
  "command_receipts",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    /** Who made the request (`agent:<id>`, `user:<id>`): keys are the caller's own. */
    caller: text("caller").notNull(),
    key: text("key").notNull(),
    /** The command and a hash of its input: the same key with another request is refused. */
    command: text("command").notNull(),
    requestHash: text("request_hash").notNull(),
    /** What the mutation changed (its activity entry's subject), for a replay whose response was not recorded. */
    entityType: text("entity_type"),
    entityId: text("entity_id"),
    /** The first response (null until the command returned). */
    response: text("response", { mode: "json" }).$type<unknown>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("command_receipts_company_caller_key_uq").on(t.companyId, t.caller, t.key), index("command_receipts_created_idx").on(t.createdAt)],
);

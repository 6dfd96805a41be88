// The append-only activity log.
import { sqliteTable, text, index } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { companies } from "./companies";

export const ACTOR_TYPES = ["agent", "user", "system"] as const;

export const activityLog = sqliteTable(
  "activity_log",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    actorType: text("actor_type", { enum: ACTOR_TYPES }).notNull(),
    actorId: text("actor_id").notNull(),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id").notNull(),
    agentId: text("agent_id"),
    runId: text("run_id"),
    details: text("details", { mode: "json" }).$type<Record<string, unknown> | null>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("activity_company_created_idx").on(t.companyId, t.createdAt),
    index("activity_company_entity_idx").on(t.companyId, t.entityType, t.entityId),
    index("activity_company_agent_idx").on(t.companyId, t.agentId),
  ],
);

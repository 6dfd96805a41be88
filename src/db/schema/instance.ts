// Instance-wide state: settings and scheduler heartbeats.
import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";

export const instanceSettings = sqliteTable("instance_settings", {
  key: text("key").primaryKey(),
  value: text("value", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const schedulerHeartbeats = sqliteTable("scheduler_heartbeats", {
  name: text("name").primaryKey(),
  lastTickAt: text("last_tick_at").notNull(),
  tickCount: integer("tick_count").notNull().default(0),
});

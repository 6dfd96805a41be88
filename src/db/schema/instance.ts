// Instance-wide state: settings, scheduler heartbeats and instance admins.
import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { users } from "./auth";
import { inDirectory } from "./homes";

export const instanceSettings = inDirectory(
  sqliteTable("instance_settings", {
    key: text("key").primaryKey(),
    value: text("value", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    updatedAt: text("updated_at").notNull(),
  }),
);

export const schedulerHeartbeats = inDirectory(
  sqliteTable("scheduler_heartbeats", {
    name: text("name").primaryKey(),
    lastTickAt: text("last_tick_at").notNull(),
    tickCount: integer("tick_count").notNull().default(0),
  }),
);

export const instanceAdmins = inDirectory(
  sqliteTable("instance_admins", {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    grantedByUserId: text("granted_by_user_id"),
    viaBootstrap: integer("via_bootstrap", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  }),
);

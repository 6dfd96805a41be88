// Shared column helpers: ids are UUID text, timestamps are ISO-8601 UTC text
// (lexicographically sortable), JSON is stored as text.
import { text, integer } from "drizzle-orm/sqlite-core";

export const id = () => text("id").primaryKey();
export const timestamp = (name: string) => text(name);
export const json = <T>(name: string) => text(name, { mode: "json" }).$type<T>();
export const bool = (name: string) => integer(name, { mode: "boolean" });
export const createdAt = () => text("created_at").notNull();
export const updatedAt = () => text("updated_at").notNull();

// Company portability: imports recorded by package hash.
import { sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, json } from "./columns";
import { companies } from "./companies";

/** Company imports, recorded under the package's hash so a retried apply returns the first result. */
export const companyImports = sqliteTable(
  "company_imports",
  {
    id: text("id").primaryKey(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    packageHash: text("package_hash").notNull(),
    result: json<Record<string, unknown>>("result").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("company_imports_package_uq").on(t.companyId, t.packageHash)],
);

// Shards (src/db/shards.ts): where companies live, and moving one (src/domain/shards/move.ts).
import { z } from "@hono/zod-openapi";

export const ShardSchema = z
  .object({
    shard: z.string().openapi({ description: "The D1 binding (`DB_SHARD_<n>`, or `DB` for companies placed before shards)", example: "DB_SHARD_0" }),
    companies: z.number().int(),
    fencedCompanies: z.number().int().openapi({ description: "Companies being moved off it now (their writes answer 503)" }),
  })
  .openapi("Shard");

export const MoveCompanySchema = z
  .object({
    shard: z.string().min(1).max(64).openapi({ description: "The shard binding to move the company to", example: "DB_SHARD_1" }),
  })
  .strict()
  .openapi("MoveCompany");

export const MovedTableSchema = z.object({
  table: z.string(),
  rows: z.number().int(),
  hash: z.string().openapi({ description: "Sum of the rows' SHA-256 modulo 2^256 (hex), the same on both shards" }),
});

export const MoveResultSchema = z
  .object({
    companyId: z.string(),
    from: z.string(),
    to: z.string(),
    tables: z.array(MovedTableSchema),
    oldCopyDeleted: z
      .boolean()
      .openapi({ description: "False when deleting the old shard's copy failed (the rows stay there unused until a move to that shard clears them)" }),
  })
  .openapi("MoveResult");

// Secret reads answered at the edge: metadata only, never values.
import { desc, eq, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { notFound } from "../errors";
import { secretView } from "./store";

/** The company's secrets, newest first. */
export async function listSecrets(db: Db, companyId: string) {
  const rows = await db
    .select()
    .from(schema.companySecrets)
    .where(eq(schema.companySecrets.companyId, companyId))
    .orderBy(desc(schema.companySecrets.createdAt), desc(sql`rowid`));
  return rows.map(secretView);
}

/** The secret row; 404 when unknown (callers check the company). */
export async function loadSecret(db: Db, secretId: string) {
  const secret = await db.query.companySecrets.findFirst({ where: eq(schema.companySecrets.id, secretId) });
  if (!secret) throw notFound("Secret not found");
  return secret;
}

// Used by issue checkout: a closed isolated execution workspace blocks checkout (409 there).
import { eq, sql, type SQL } from "drizzle-orm";
import { schema, type Db } from "../../db/client";

/** SQL: whether execution workspace `id` (an id or SQL for one) is a closed isolated one. */
export const closedIsolatedWorkspace = (id: SQL | string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${schema.executionWorkspaces} WHERE ${schema.executionWorkspaces.id} = ${id} AND ${schema.executionWorkspaces.mode} = 'isolated' AND ${schema.executionWorkspaces.status} = 'closed')`;

export async function executionWorkspaceBlocksCheckout(db: Db, executionWorkspaceId: string | null | undefined): Promise<boolean> {
  if (!executionWorkspaceId) return false;
  const row = await db
    .select({ mode: schema.executionWorkspaces.mode, status: schema.executionWorkspaces.status })
    .from(schema.executionWorkspaces)
    .where(eq(schema.executionWorkspaces.id, executionWorkspaceId))
    .limit(1);
  return row[0]?.mode === "isolated" && row[0]?.status === "closed";
}

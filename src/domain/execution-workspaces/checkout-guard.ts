// Used by issue checkout: a closed isolated execution workspace blocks checkout (409 there).
import { eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";

export async function executionWorkspaceBlocksCheckout(db: Db, executionWorkspaceId: string | null | undefined): Promise<boolean> {
  if (!executionWorkspaceId) return false;
  const row = await db
    .select({ mode: schema.executionWorkspaces.mode, status: schema.executionWorkspaces.status })
    .from(schema.executionWorkspaces)
    .where(eq(schema.executionWorkspaces.id, executionWorkspaceId))
    .limit(1);
  return row[0]?.mode === "isolated" && row[0]?.status === "closed";
}

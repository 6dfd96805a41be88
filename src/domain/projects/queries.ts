// Project reads answered at the edge (project views themselves are built in view.ts).
import { asc, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { workspaceView } from "./view";

/** The project's workspaces, oldest first. */
export async function listProjectWorkspaces(db: Db, projectId: string) {
  const rows = await db
    .select()
    .from(schema.projectWorkspaces)
    .where(eq(schema.projectWorkspaces.projectId, projectId))
    .orderBy(asc(schema.projectWorkspaces.createdAt), asc(schema.projectWorkspaces.id));
  return rows.map(workspaceView);
}

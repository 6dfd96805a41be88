// Project shortnames (urlKey): the slug of the name, unique per company; lookups by UUID or shortname.
import { and, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { badRequest, conflict, notFound } from "../errors";
import { slugify } from "../users/slug";

export const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The shortname of a project name; names with no letters or digits fall back to `project`. */
export const projectUrlKey = (name: string) => slugify(name).slice(0, 100) || "project";

/**
 * A project by UUID, or by shortname within `companyId` (the `?companyId=` query or the
 * agent's own company). Missing → 404; a shortname shared by several projects → 409.
 */
export async function findProjectByRef(db: Db, ref: string, companyId: string | null) {
  if (UUID_SHAPE.test(ref)) {
    const row = await db.query.projects.findFirst({ where: eq(schema.projects.id, ref) });
    if (row) return row;
  }
  if (!companyId) {
    if (UUID_SHAPE.test(ref)) throw notFound("Project not found");
    throw badRequest("A project shortname needs company context: pass ?companyId= (agents use their own company)");
  }
  const rows = await db
    .select()
    .from(schema.projects)
    .where(and(eq(schema.projects.companyId, companyId), eq(schema.projects.urlKey, projectUrlKey(ref))))
    .limit(2);
  if (!rows.length) throw notFound("Project not found");
  if (rows.length > 1) throw conflict(`Project shortname "${ref}" is ambiguous in this company`, { projectIds: rows.map((r) => r.id) });
  return rows[0];
}

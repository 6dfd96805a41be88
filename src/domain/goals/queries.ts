// Goal reads answered at the edge.
import { asc, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { notFound } from "../errors";
import { goalView } from "./view";

/** All goals of the company, oldest first. */
export async function listGoals(db: Db, companyId: string) {
  const rows = await db.select().from(schema.goals).where(eq(schema.goals.companyId, companyId)).orderBy(asc(schema.goals.createdAt), asc(schema.goals.id));
  return rows.map(goalView);
}

/** The goal row; 404 when missing (callers check the company). */
export async function loadGoal(db: Db, goalId: string) {
  const row = await db.query.goals.findFirst({ where: eq(schema.goals.id, goalId) });
  if (!row) throw notFound("Goal not found");
  return row;
}

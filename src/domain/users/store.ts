// User writes made at the edge (a user's own profile is not company state, so no company object runs them).
import { eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";

/** Changes the given profile fields (name, image); omitted fields stay. */
export async function updateUserProfile(db: Db, userId: string, fields: { name?: string; image?: string | null }) {
  await db
    .update(schema.users)
    .set({ ...(fields.name !== undefined ? { name: fields.name } : {}), ...(fields.image !== undefined ? { image: fields.image } : {}), updatedAt: new Date() })
    .where(eq(schema.users.id, userId))
    .run();
}

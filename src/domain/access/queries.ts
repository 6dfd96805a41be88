// Access reads answered at the edge: the user directory, join requests and invites (by id or by
// the token a recipient holds) and the inviting company's logo.
import { and, desc, eq } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { notFound } from "../errors";
import { slugify } from "../users/slug";
import { usersById } from "../users/queries";
import { hashSecret } from "./tokens";
import { inviteView } from "./invites";
import { joinRequestView } from "./join-requests";

const memberships = schema.companyMemberships;

/** The company's active users for pickers, by name. */
export async function userDirectory(db: Db, companyId: string) {
  // Memberships on the company's shard, users in the directory (src/db/shards.ts).
  const rows = await db
    .select({ userId: memberships.principalId, role: memberships.membershipRole })
    .from(memberships)
    .where(and(eq(memberships.companyId, companyId), eq(memberships.principalType, "user"), eq(memberships.status, "active")));
  const users = await usersById(
    db,
    rows.map((r) => r.userId),
  );
  return rows
    .flatMap((r) => {
      const user = users.get(r.userId);
      return user ? [{ id: user.id, name: user.name, slug: slugify(user.name) || user.id, image: user.image ?? null, role: r.role }] : [];
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

type JoinRequestRow = typeof schema.joinRequests.$inferSelect;

/** Join requests newest first (at most 500); `pending` means pending_approval. */
export async function listJoinRequests(
  db: Db,
  companyId: string,
  filters: { status?: JoinRequestRow["status"] | "pending"; requestType?: JoinRequestRow["requestType"] },
) {
  const t = schema.joinRequests;
  const rows = await db
    .select()
    .from(t)
    .where(
      and(
        eq(t.companyId, companyId),
        filters.status ? eq(t.status, filters.status === "pending" ? "pending_approval" : filters.status) : undefined,
        filters.requestType ? eq(t.requestType, filters.requestType) : undefined,
      ),
    )
    .orderBy(desc(t.createdAt))
    .limit(500);
  return rows.map(joinRequestView);
}

/** The join request; 404 when unknown. */
export async function loadJoinRequest(db: Db, requestId: string) {
  const request = await db.query.joinRequests.findFirst({ where: eq(schema.joinRequests.id, requestId) });
  if (!request) throw notFound("Join request not found");
  return request;
}

/** The company's invites newest first (at most 500; tokens are never shown again). */
export async function listInvites(db: Db, companyId: string) {
  const t = schema.companyInvites;
  const rows = await db.select().from(t).where(eq(t.companyId, companyId)).orderBy(desc(t.createdAt)).limit(500);
  return rows.map(inviteView);
}

export const findInvite = (db: Db, inviteId: string) => db.query.companyInvites.findFirst({ where: eq(schema.companyInvites.id, inviteId) });

/** The invite a token names, with its company; 404 for unknown tokens. */
export async function inviteByToken(db: Db, token: string) {
  const row = await db
    .select({ invite: schema.companyInvites, company: schema.companies })
    .from(schema.companyInvites)
    .innerJoin(schema.companies, eq(schema.companies.id, schema.companyInvites.companyId))
    .where(eq(schema.companyInvites.tokenHash, hashSecret(token)))
    .get();
  if (!row) throw notFound("Invite not found");
  return row;
}
export type InviteWithCompany = Awaited<ReturnType<typeof inviteByToken>>;

/** The logo asset of the company; 404 when it has none (or the asset is not the company's). */
export async function companyLogoAsset(db: Db, company: { id: string; logoAssetId: string | null }) {
  if (!company.logoAssetId) throw notFound("The company has no logo");
  const asset = await db.query.assets.findFirst({ where: eq(schema.assets.id, company.logoAssetId) });
  if (!asset || asset.companyId !== company.id) throw notFound("The company has no logo");
  return asset;
}

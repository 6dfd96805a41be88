// Company reads answered at the edge: the companies a board caller can see and their counts. These
// are cross-company reads: they run on every shard holding one of the caller's companies.
import { and, eq, inArray, ne } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { hasInstanceWideAccess, type Actor } from "../actor";
import { companyView } from "./view";

const companies = schema.companies;

/** Companies the caller can reach; local implicit and instance admins see every company. */
function visibleCompanyFilter(actor: Actor) {
  if (hasInstanceWideAccess(actor)) return undefined;
  const ids = actor.type === "board" ? actor.companyIds : [];
  return inArray(companies.id, ids.length ? ids : ["-"]);
}

/** Visible companies, oldest first; archived ones only when asked for. */
export async function listVisibleCompanies(db: Db, actor: Actor, includeArchived: boolean) {
  const rows = await db
    .select()
    .from(companies)
    .where(and(visibleCompanyFilter(actor), includeArchived ? undefined : ne(companies.status, "archived")));
  // Read from the caller's shards at once (src/db/shards.ts: an unordered read is their union); the whole is sorted here.
  rows.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  return rows.map(companyView);
}

/** Live agent and issue counts keyed by company id, for the visible companies. */
export async function companyStats(db: Db, actor: Actor) {
  const rows = await db
    .select({
      id: companies.id,
      agentCount: db.$count(schema.agents, and(eq(schema.agents.companyId, companies.id), ne(schema.agents.status, "terminated"))),
      issueCount: db.$count(schema.issues, eq(schema.issues.companyId, companies.id)),
    })
    .from(companies)
    .where(visibleCompanyFilter(actor));
  return Object.fromEntries(rows.map((r) => [r.id, { agentCount: r.agentCount, issueCount: r.issueCount }]));
}

/** The company's view; undefined when it does not exist. */
export async function findCompanyView(db: Db, companyId: string) {
  const row = await db.query.companies.findFirst({ where: eq(companies.id, companyId) });
  return row && companyView(row);
}

// The request's shard scope (src/db/shards.ts): which company database its company-table
// statements go to. Opened before the caller is resolved; the caller's resolution narrows it for
// agents (their company), the path's company narrows it for `/api/companies/{id}/…`, a board
// caller's companies' shards are the candidates of entity routes until the entity's company is
// known (src/http/access.ts narrows then), and instance-wide callers start with every shard.
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { and, eq } from "drizzle-orm";
import { createDb, schema, type Db } from "../db/client";
import type { PUBLIC_ID_KINDS } from "../db/schema/directory";
import type { ReadBatch } from "../db/read-batch";
import { addPlacementReads, cachedPlacement, rememberPlacement, scopeToCompany } from "../db/placement";
import { currentShardScope, narrowShardScope, withShardScope } from "../db/shards";
import { hasInstanceWideAccess } from "../domain/actor";

export const shardScopeMiddleware: MiddlewareHandler<AppEnv> = (c, next) => withShardScope({ shard: null, companyId: null, candidates: null }, () => next());

const COMPANY_PATH = /^\/api\/companies\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\/|$)/i;

/** The company a `/api/companies/{companyId}/…` path names. */
export const companyIdInPath = (path: string): string | null => COMPANY_PATH.exec(path)?.[1].toLowerCase() ?? null;

/** Adds the path company's placement to the caller's directory read, so the directory is read once before the handler. */
export function addPathPlacementRead(c: Context<AppEnv>, batch: ReadBatch): () => void {
  const companyId = companyIdInPath(c.req.path);
  if (!companyId) return () => {};
  const answer = addPlacementReads(batch, [companyId]);
  return () => void answer();
}

/** A path segment decoded, or null when it is no valid percent-encoding (the route answers it). */
function decodedSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

const PUBLIC_TRIGGER_PATH = /^\/api\/routine-triggers\/public\/([^/]{1,200})\/fire\/?$/;

/** A public id's company and shard, from the directory (one read): a public webhook names no company. */
async function scopeToPublicId(db: Db, kind: (typeof PUBLIC_ID_KINDS)[number], publicId: string) {
  const [row] = await db
    .select({ companyId: schema.directoryPublicIds.companyId, shard: schema.directoryCompanies.shard, fencedAt: schema.directoryCompanies.fencedAt })
    .from(schema.directoryPublicIds)
    .innerJoin(schema.directoryCompanies, eq(schema.directoryCompanies.id, schema.directoryPublicIds.companyId))
    .where(and(eq(schema.directoryPublicIds.kind, kind), eq(schema.directoryPublicIds.publicId, publicId)));
  if (!row) return;
  rememberPlacement(row);
  narrowShardScope(row.companyId, row.shard);
}

/** After the caller is known: the path's company (or the public id's), else the board caller's candidate shards. */
export const scopeAfterActorMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  const scope = currentShardScope();
  const pathCompany = companyIdInPath(c.req.path);
  const publicTrigger = PUBLIC_TRIGGER_PATH.exec(c.req.path)?.[1];
  if (scope && pathCompany && scope.companyId !== pathCompany) await scopeToCompany(createDb(c.env.DB), pathCompany);
  else if (scope && publicTrigger) {
    const publicId = decodedSegment(publicTrigger);
    if (publicId) await scopeToPublicId(createDb(c.env.DB), "routine_trigger", publicId);
  } else if (scope && !scope.shard) {
    const actor = c.get("actor");
    if (actor.type === "board" && !hasInstanceWideAccess(actor)) {
      const shards = actor.companyIds.map((id) => cachedPlacement(id)?.shard).filter((s): s is string => !!s);
      scope.candidates = [...new Set(shards)];
    }
  }
  await next();
};

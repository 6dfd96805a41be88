// Access guards: who may reach which company, and as what.
import type { Context } from "hono";
import { and, eq } from "drizzle-orm";
import type { AppEnv } from "../env";
import { createDb, schema } from "../db/client";
import type { MembershipRole } from "../db/schema/access";
import { ReadBatch } from "../db/read-batch";
import { template } from "../db/templates";
import { dbOf } from "./db";
import { cachedPlacement, scopeToCompany } from "../db/placement";
import { narrowShardScope } from "../db/shards";
import { forbidden, notFound, unauthorized } from "../domain/errors";
import { hasInstanceWideAccess, type Actor, type AgentActor, type BoardActor } from "../domain/actor";

export type { MembershipRole };
export type AuthedActor = BoardActor | AgentActor;

export function requireActor(c: Context<AppEnv>): AuthedActor {
  const actor = c.get("actor");
  if (actor.type === "none") throw unauthorized();
  return actor;
}

export function requireBoard(c: Context<AppEnv>): BoardActor {
  const actor = requireActor(c);
  if (actor.type !== "board") throw forbidden("Board access required");
  return actor;
}

export function requireAgent(c: Context<AppEnv>): AgentActor {
  const actor = requireActor(c);
  if (actor.type !== "agent") throw forbidden("Agent access required");
  return actor;
}

export function requireInstanceAdmin(c: Context<AppEnv>): BoardActor {
  const actor = requireBoard(c);
  if (!hasInstanceWideAccess(actor)) throw forbidden("Instance admin access required");
  return actor;
}

/** Whether the actor can reach the company at all (membership, own company, or instance-wide trust). */
export function canAccessCompany(actor: Actor, companyId: string): boolean {
  if (actor.type === "agent") return actor.companyId === companyId;
  if (actor.type === "board") return hasInstanceWideAccess(actor) || actor.companyIds.includes(companyId);
  return false;
}

/** The board user's active membership role in the company, or null. */
export async function boardMembershipRole(env: Env, companyId: string, userId: string): Promise<MembershipRole | null> {
  const m = schema.directoryMemberships;
  const [row] = await createDb(env.DB)
    .select({ role: m.membershipRole })
    .from(m)
    .where(and(eq(m.companyId, companyId), eq(m.userId, userId), eq(m.status, "active")));
  return (row?.role as MembershipRole | undefined) ?? null;
}

export interface CompanyAccessOptions {
  /** Only board callers (agents get 403). */
  board?: boolean;
  /** Board members need one of these roles (instance-wide trust bypasses). */
  roles?: MembershipRole[];
}

/** The company's row, built once per isolate (src/db/templates.ts): every company-path request reads it. */
const companyRow = template(["id"], (db, slot) => db.select().from(schema.companies).where(eq(schema.companies.id, slot.id)));

/**
 * Company-path guard added to a read batch, so a handler's reads and its access check share one
 * round trip. The returned check (call it after the batch ran) answers 401 without credentials
 * (at once), 404 if the company does not exist, 403 if the caller belongs elsewhere or lacks the
 * role, and returns the company row.
 */
export function addCompanyAccessCheck(c: Context<AppEnv>, batch: ReadBatch, companyId: string, options: CompanyAccessOptions = {}) {
  const actor = options.board ? requireBoard(c) : requireActor(c);
  const { db } = batch;
  const company = batch.add(companyRow(db, { id: companyId }));
  const role =
    options.roles && actor.type === "board" && !hasInstanceWideAccess(actor)
      ? batch.add(
          db
            .select({ role: schema.companyMemberships.membershipRole })
            .from(schema.companyMemberships)
            .where(
              and(
                eq(schema.companyMemberships.companyId, companyId),
                eq(schema.companyMemberships.principalType, "user"),
                eq(schema.companyMemberships.principalId, actor.userId),
                eq(schema.companyMemberships.status, "active"),
              ),
            ),
        )
      : null;
  return () => {
    const row = company.value[0];
    if (!row) throw notFound("Company not found");
    if (!canAccessCompany(actor, companyId)) throw forbidden("No access to this company");
    if (role) {
      const held = role.value[0]?.role as MembershipRole | undefined;
      if (!held || !options.roles!.includes(held)) throw forbidden(`Requires company role ${options.roles!.join(" or ")}`);
    }
    return row;
  };
}

/** A company named outside the path (a query or body field): the rest of the request reads its shard (src/db/shards.ts). */
export async function scopeRequestToCompany(c: Context<AppEnv>, companyId: string): Promise<void> {
  await scopeToCompany(dbOf(c), companyId);
}

/** The company-path guard on its own (one round trip). */
export async function requireCompanyAccess(c: Context<AppEnv>, companyId: string, options: CompanyAccessOptions = {}) {
  await scopeRequestToCompany(c, companyId);
  const batch = new ReadBatch(dbOf(c));
  const check = addCompanyAccessCheck(c, batch, companyId, options);
  await batch.run();
  return check();
}

/**
 * Entity-path guard (`/api/<entity>/{id}`): an entity of a company the caller
 * cannot reach is reported as missing, so ids of other tenants leak nothing.
 */
export function requireEntityAccess(c: Context<AppEnv>, companyId: string | undefined | null, what: string) {
  const actor = requireActor(c);
  if (!companyId || !canAccessCompany(actor, companyId)) throw notFound(`${what} not found`);
  // The entity's company is known: the rest of the request reads its shard (src/db/shards.ts).
  const placement = cachedPlacement(companyId);
  if (placement) narrowShardScope(companyId, placement.shard);
  return actor;
}

// Which space a wiki call works in: `wikiId` and `spaceSlug` default to `default`. The default space
// exists as soon as anything is written to it (a write creates it in its own batch); any other
// space must have been created (404). Board-only spaces refuse agents (403); archived spaces are
// read-only (409 on writes).
import { and, eq, sql, type SQL } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import type { Statement } from "../../db/batch";
import { noRowExists, rowExists } from "../../db/guards";
import type { ReadBatch } from "../../db/read-batch";
import type { CommandContext } from "../../company/command";
import { conflict, forbidden, notFound } from "../errors";
import { newId } from "../../crypto/random";
import type { Actor } from "../actor";

export const DEFAULT_WIKI_ID = "default";
export const DEFAULT_SPACE_SLUG = "default";
/** Wiki ids and space slugs: lowercase letters, digits and dashes (up to 63). */
export const WIKI_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

export type SpaceRow = typeof schema.wikiSpaces.$inferSelect;

export interface WikiRef {
  wikiId?: string | null;
  spaceSlug?: string | null;
}

export const wikiIdOf = (ref: WikiRef) => ref.wikiId || DEFAULT_WIKI_ID;
export const spaceSlugOf = (ref: WikiRef) => ref.spaceSlug || DEFAULT_SPACE_SLUG;

const sp = schema.wikiSpaces;

/** SQL: the space's id (NULL when it does not exist). */
export const spaceIdSql = (companyId: string, ref: WikiRef): SQL =>
  sql`(SELECT ${sp.id} FROM ${sp} WHERE ${sp.companyId} = ${companyId} AND ${sp.wikiId} = ${wikiIdOf(ref)} AND ${sp.slug} = ${spaceSlugOf(ref)})`;

export const spaceQuery = (db: Db, companyId: string, ref: WikiRef) =>
  db
    .select()
    .from(sp)
    .where(and(eq(sp.companyId, companyId), eq(sp.wikiId, wikiIdOf(ref)), eq(sp.slug, spaceSlugOf(ref))));

/** Adds the space's read to `batch`; the handle's value is the row (or none). */
export const addSpaceRead = (batch: ReadBatch, companyId: string, ref: WikiRef) => batch.add(spaceQuery(batch.db, companyId, ref));

function checkScope(actor: Actor, space: SpaceRow) {
  if (space.accessScope === "board" && actor.type !== "board") throw forbidden(`Wiki space '${space.slug}' is for board users only`);
}

/**
 * The space a read works in: the row; null for a default space nothing was written to yet (an
 * empty wiki); 404 for any other missing space.
 */
export function readableSpace(actor: Actor, ref: WikiRef, row: SpaceRow | undefined): SpaceRow | null {
  if (!row) {
    if (spaceSlugOf(ref) === DEFAULT_SPACE_SLUG) return null;
    throw notFound(`Wiki space '${spaceSlugOf(ref)}' not found`);
  }
  checkScope(actor, row);
  return row;
}

export function newSpaceRow(
  ctx: Pick<CommandContext, "companyId" | "now">,
  fields: { wikiId: string; slug: string; displayName?: string | null; accessScope?: SpaceRow["accessScope"]; settings?: Record<string, unknown> },
): SpaceRow {
  return {
    id: newId(),
    companyId: ctx.companyId,
    wikiId: fields.wikiId,
    slug: fields.slug,
    displayName: fields.displayName ?? (fields.slug === DEFAULT_SPACE_SLUG ? "Default" : fields.slug),
    accessScope: fields.accessScope ?? "company",
    status: "active",
    settings: fields.settings ?? {},
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
}

/**
 * The space a write goes to, with the statements the write's batch needs: a guard that it is still
 * active (or, for a default space created here, still absent) and, then, its insert.
 */
export function writableSpace(
  ctx: CommandContext,
  actor: Actor,
  ref: WikiRef,
  row: SpaceRow | undefined,
): { space: SpaceRow; condition: SQL; statements: Statement[] } {
  if (!row) {
    if (spaceSlugOf(ref) !== DEFAULT_SPACE_SLUG) throw notFound(`Wiki space '${spaceSlugOf(ref)}' not found`);
    const space = newSpaceRow(ctx, { wikiId: wikiIdOf(ref), slug: DEFAULT_SPACE_SLUG });
    return {
      space,
      condition: noRowExists(sp, { companyId: ctx.companyId, wikiId: space.wikiId, slug: space.slug }),
      statements: [ctx.db.insert(sp).values(space)],
    };
  }
  checkScope(actor, row);
  if (row.status === "archived") throw conflict(`Wiki space '${row.slug}' is archived (read-only)`, { spaceSlug: row.slug, status: row.status });
  return { space: row, condition: rowExists(sp, { id: row.id, status: "active" }), statements: [] };
}

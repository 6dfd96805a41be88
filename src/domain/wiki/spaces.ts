// Spaces of a wiki (board): create, update (rename, settings, archive or restore), and bootstrap a
// space's missing control files. The default space cannot be archived.
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { noRowExists, rowExists } from "../../db/guards";
import { defineCommand, type CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { badRequest, conflict, notFound } from "../errors";
import type { WIKI_ACCESS_SCOPES, WIKI_SPACE_STATUSES } from "../../db/schema/plugins";
import { DEFAULT_SPACE_SLUG, WIKI_ID_PATTERN, newSpaceRow, spaceQuery, spaceSlugOf, wikiIdOf, writableSpace, type SpaceRow, type WikiRef } from "./space";
import { CONTROL_FILES } from "./paths";
import { CONTROL_FILE_CONTENTS } from "./templates";
import { writePageContents } from "./pages";
import { operationInsert } from "./operations";
import { slugOf } from "./paths";
import { spaceView } from "./view";

const sp = schema.wikiSpaces;

export interface CreateSpaceInput {
  wikiId?: string | null;
  slug?: string | null;
  displayName?: string | null;
  accessScope?: (typeof WIKI_ACCESS_SCOPES)[number];
}

export const createSpace = defineCommand("wiki.space.create", async (ctx, actor, input: CreateSpaceInput) => {
  const slug = input.slug ?? (input.displayName ? slugOf(input.displayName, "") : "");
  if (!WIKI_ID_PATTERN.test(slug))
    throw badRequest("A space needs a slug (lowercase letters, digits and dashes, up to 63) or a displayName to derive it from", { slug });
  const wikiId = wikiIdOf(input);
  const [existing] = await ctx.db.batch([spaceQuery(ctx.db, ctx.companyId, { wikiId, spaceSlug: slug })]);
  if (existing[0]) throw conflict(`Wiki space '${slug}' already exists`, { slug });
  const space = newSpaceRow(ctx, { wikiId, slug, displayName: input.displayName, accessScope: input.accessScope });
  const operation = operationInsert(ctx, actor, { wikiId, spaceId: space.id, operationType: "space_create", summary: space.displayName, details: { slug } });
  await ctx.batch([
    ctx.guard(noRowExists(sp, { companyId: ctx.companyId, wikiId, slug })),
    ctx.db.insert(sp).values(space),
    operation.statement,
    ctx.activity({
      action: "wiki.space_created",
      entityType: "wiki_space",
      entityId: space.id,
      details: { wikiId, spaceSlug: slug, displayName: space.displayName, accessScope: space.accessScope, status: space.status },
    }),
  ]);
  return { status: "created" as const, space: spaceView(space) };
});

export interface UpdateSpaceInput extends WikiRef {
  displayName?: string;
  status?: (typeof WIKI_SPACE_STATUSES)[number];
  settings?: Record<string, unknown>;
}

async function requireSpace(ctx: CommandContext, ref: WikiRef): Promise<SpaceRow> {
  const [rows] = await ctx.db.batch([spaceQuery(ctx.db, ctx.companyId, ref)]);
  if (!rows[0]) throw notFound(`Wiki space '${spaceSlugOf(ref)}' not found`);
  return rows[0];
}

async function changeSpace(ctx: CommandContext, actor: Actor, input: UpdateSpaceInput, operationType: "space_update" | "space_archive") {
  const space = await requireSpace(ctx, input);
  if (input.status === "archived" && space.slug === DEFAULT_SPACE_SLUG) throw conflict("The default space cannot be archived", { spaceSlug: space.slug });
  const changes = {
    ...(input.displayName !== undefined ? { displayName: input.displayName } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
    ...(input.settings !== undefined ? { settings: input.settings } : {}),
  };
  const updated: SpaceRow = { ...space, ...changes, updatedAt: ctx.now };
  const changed = Object.keys(changes).filter((k) => JSON.stringify(space[k as keyof SpaceRow]) !== JSON.stringify(updated[k as keyof SpaceRow]));
  if (!changed.length) return { space: spaceView(space) };
  const wikiId = wikiIdOf(input);
  const operation = operationInsert(ctx, actor, { wikiId, spaceId: space.id, operationType, summary: changed.join(", "), details: { changed } });
  await ctx.batch([
    ctx.guard(rowExists(sp, { id: space.id, updatedAt: space.updatedAt })),
    ctx.db
      .update(sp)
      .set({ ...changes, updatedAt: ctx.now })
      .where(eq(sp.id, space.id)),
    operation.statement,
    ctx.activity({
      action: updated.status === "archived" && space.status !== "archived" ? "wiki.space_archived" : "wiki.space_updated",
      entityType: "wiki_space",
      entityId: space.id,
      details: { wikiId, spaceSlug: space.slug, changed, status: updated.status, displayName: updated.displayName },
    }),
  ]);
  return { space: spaceView(updated) };
}

export const updateSpace = defineCommand("wiki.space.update", (ctx, actor, input: UpdateSpaceInput) => changeSpace(ctx, actor, input, "space_update"));
export const archiveSpace = defineCommand("wiki.space.archive", (ctx, actor, input: WikiRef) =>
  changeSpace(ctx, actor, { ...input, status: "archived" }, "space_archive"),
);

/** The space, created first when it is the default one and missing (its own batch). */
export async function ensureSpace(ctx: CommandContext, actor: Actor, ref: WikiRef): Promise<SpaceRow> {
  const [rows] = await ctx.db.batch([spaceQuery(ctx.db, ctx.companyId, ref)]);
  const { space, condition, statements } = writableSpace(ctx, actor, ref, rows[0]);
  if (statements.length) await ctx.batch([ctx.guard(condition), ...statements]);
  return space;
}

/** Writes the space's missing control files; existing ones are preserved as they are. */
export async function bootstrapControlFiles(ctx: CommandContext, actor: Actor, ref: WikiRef) {
  const space = await ensureSpace(ctx, actor, ref);
  const p = schema.wikiPages;
  const existing = new Set(
    (
      await ctx.db
        .select({ path: p.path })
        .from(p)
        .where(and(eq(p.companyId, ctx.companyId), eq(p.spaceId, space.id)))
    ).map((r) => r.path),
  );
  const writtenFiles: string[] = [];
  const preservedFiles: string[] = [];
  for (const path of CONTROL_FILES) {
    if (existing.has(path)) {
      preservedFiles.push(path);
      continue;
    }
    await writePageContents(ctx, actor, ref, { space, page: undefined, backlinks: [] }, path, CONTROL_FILE_CONTENTS[path], {
      operationType: "write_page",
      summary: "bootstrap",
      details: { bootstrap: true },
    });
    writtenFiles.push(path);
  }
  return { space, writtenFiles, preservedFiles };
}

export const bootstrapSpace = defineCommand("wiki.space.bootstrap", async (ctx, actor, input: WikiRef) => {
  const files = await bootstrapControlFiles(ctx, actor, input);
  return { status: "ready" as const, space: spaceView(files.space), writtenFiles: files.writtenFiles, preservedFiles: files.preservedFiles };
});

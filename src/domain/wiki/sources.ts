// Capturing a raw source (immutable): within its type's capture cap (413 otherwise), stored in R2
// by hash, recorded with its search text, an operation and an activity entry in one batch. The
// same rawPath with the same text answers the existing source; with other text it is a 409.
import { and, eq, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { ReadBatch } from "../../db/read-batch";
import { noRowExists } from "../../db/guards";
import { defineCommand, type LoadScope } from "../../company/command";
import { conflict } from "../errors";
import { newId } from "../../crypto/random";
import { WIKI_SOURCE_TYPES } from "../../db/schema/plugins";
import { addSpaceRead, spaceIdSql, wikiIdOf, writableSpace, type SpaceRow, type WikiRef } from "./space";
import { defaultRawPath, requireRawPath } from "./paths";
import { checkCaptureCap } from "./caps";
import { hashOf, putBody } from "./bodies";
import { authorColumns, operationInsert } from "./operations";
import type { SourceRow } from "./view";
import { wikiSourceSearch } from "./search-index";

const s = schema.wikiSources;

/**
 * The source types a capture accepts: the stored kinds, and `text`, the incumbent's default that its
 * clients send, which is the plain-text kind stored here as `manual` (pasted text, same cap).
 */
export const CAPTURE_SOURCE_TYPES = [...WIKI_SOURCE_TYPES, "text"] as const;
export type CaptureSourceType = (typeof CAPTURE_SOURCE_TYPES)[number];
const storedSourceType = (type: CaptureSourceType | undefined): SourceRow["sourceType"] => (type === undefined || type === "text" ? "manual" : type);

export interface CaptureSourceInput extends WikiRef {
  sourceType?: CaptureSourceType;
  title?: string | null;
  url?: string | null;
  contents: string;
  rawPath?: string | null;
  metadata?: Record<string, unknown> | null;
}

interface CaptureLoaded {
  space: SpaceRow | undefined;
  existing: SourceRow | undefined;
}

/** The raw path a capture is stored at (given, or derived from the date, title and hash). */
const rawPathOf = (input: CaptureSourceInput, now: string, hash: string) =>
  input.rawPath ? requireRawPath(input.rawPath) : defaultRawPath(now, input.title ?? null, hash);

export const captureSource = defineCommand("wiki.source.capture", {
  load: async (db: Db, scope: LoadScope, input: CaptureSourceInput): Promise<CaptureLoaded> => {
    const companyId = scope.companyId!;
    const rawPath = rawPathOf(input, scope.now, hashOf(input.contents));
    const batch = new ReadBatch(db);
    const space = addSpaceRead(batch, companyId, input);
    const existing = batch.add(
      db
        .select()
        .from(s)
        .where(and(eq(s.companyId, companyId), sql`${s.spaceId} = ${spaceIdSql(companyId, input)}`, eq(s.rawPath, rawPath))),
    );
    await batch.run();
    return { space: space.value[0], existing: existing.value[0] };
  },
  run: async (ctx, actor, input, loaded) => {
    const sourceType = storedSourceType(input.sourceType);
    const sizeChars = checkCaptureCap(sourceType, input.contents);
    const hash = hashOf(input.contents);
    const rawPath = rawPathOf(input, ctx.now, hash);
    const space = writableSpace(ctx, actor, input, loaded.space);
    if (loaded.existing && loaded.existing.rawPath === rawPath) {
      if (loaded.existing.hash === hash) return { sourceId: loaded.existing.id, rawPath, hash, title: loaded.existing.title, created: false };
      throw conflict(`A different source is already captured at ${rawPath} (sources are immutable)`, { rawPath, currentHash: loaded.existing.hash });
    }
    const body = await putBody(ctx.env, ctx.companyId, input.contents, hash);
    const title = input.title?.trim() || rawPath.split("/").pop()!.replace(/\.md$/, "");
    const row: SourceRow = {
      id: newId(),
      companyId: ctx.companyId,
      spaceId: space.space.id,
      rawPath,
      title,
      sourceType,
      url: input.url ?? null,
      hash,
      objectKey: body.objectKey,
      sizeChars,
      metadata: input.metadata ?? null,
      ...authorColumns(actor),
      createdAt: ctx.now,
    };
    const wikiId = wikiIdOf(input);
    const operation = operationInsert(ctx, actor, {
      wikiId,
      spaceId: space.space.id,
      operationType: "capture_source",
      summary: title,
      details: { sourceId: row.id, rawPath, hash, sourceType, sizeChars },
    });
    await ctx.batch([
      ctx.guard(sql`${space.condition} AND ${noRowExists(s, and(eq(s.spaceId, space.space.id), eq(s.rawPath, rawPath))!)}`),
      ...space.statements,
      ctx.db.insert(s).values(row),
      ctx.db.insert(wikiSourceSearch).values({ rowid: sql<number>`(SELECT rowid FROM ${s} WHERE ${s.id} = ${row.id})`, title, rawPath, body: input.contents }),
      operation.statement,
      ctx.activity({
        action: "wiki.source_captured",
        entityType: "wiki_source",
        entityId: row.id,
        details: { wikiId, spaceSlug: space.space.slug, rawPath, hash, title, sourceType, sizeChars, url: row.url, operationId: operation.row.id },
      }),
    ]);
    return { sourceId: row.id, rawPath, hash, title, created: true };
  },
});

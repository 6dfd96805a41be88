// The knowledge wiki's commands (run in the company object), in one list for the registry
// (src/company/commands.ts), and the purge an uninstall with `purge=true` runs in each company.
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand } from "../../company/command";
import { appendLog, deletePage, movePage, writePage } from "./pages";
import { captureSource } from "./sources";
import { archiveSpace, bootstrapSpace, createSpace, updateSpace } from "./spaces";
import { bootstrapWiki } from "./bootstrap";
import { fileAsPage, startQuery } from "./query";
import { deleteWikiObjects } from "./bodies";

/** Every wiki row of the company (search text by trigger), then its R2 objects. */
export const purgeWiki = defineCommand("wiki.purge", async (ctx, _actor, _input: Record<string, never>) => {
  const tables = [
    schema.wikiQuerySessions,
    schema.wikiOperations,
    schema.wikiLinks,
    schema.wikiPageRevisions,
    schema.wikiPages,
    schema.wikiSources,
    schema.wikiSpaces,
    schema.wikiInstances,
  ] as const;
  await ctx.batch([
    ...tables.map((t) => ctx.db.delete(t).where(eq(t.companyId, ctx.companyId))),
    ctx.activity({ action: "wiki.purged", entityType: "wiki", entityId: ctx.companyId, details: { pluginKey: "knowledge-wiki" } }),
  ]);
  await deleteWikiObjects(ctx.env, ctx.companyId);
  return { purged: true as const };
});

export const wikiCommands = [
  writePage,
  appendLog,
  movePage,
  deletePage,
  captureSource,
  createSpace,
  updateSpace,
  archiveSpace,
  bootstrapSpace,
  bootstrapWiki,
  startQuery,
  fileAsPage,
  purgeWiki,
];

// An issue's comments: issues/<identifier>/comments.json ([{ authorAgentId, authorUserId, body,
// createdAt }]), when the export includes comments.
import { asc } from "drizzle-orm";
import { z } from "zod";
import { schema } from "../../../db/client";
import { inIds } from "../../../db/id-list";
import { newId } from "../../../crypto/random";
import type { IssuePart } from "./kind";
import { MANY, nullableId } from "./fields";

const CommentSchema = z.object({
  authorAgentId: nullableId,
  authorUserId: nullableId,
  body: z.string().min(1).max(100_000),
  createdAt: z.string().max(40).nullish(),
});

export type PkgComment = z.infer<typeof CommentSchema>;

export const comments: IssuePart<PkgComment> = {
  key: "comments",
  exportPage({ db, batch, issueIds }) {
    const rows = batch.add(
      db.select().from(schema.issueComments).where(inIds(schema.issueComments.issueId, issueIds)).orderBy(asc(schema.issueComments.createdAt)),
    );
    return {
      write(ctx, issueId, base) {
        const own = rows.value.filter((c) => c.issueId === issueId);
        if (!own.length) return;
        ctx.counts.comments += own.length;
        ctx.put(
          `${base}/comments.json`,
          JSON.stringify(
            own.map((c) => ({ authorAgentId: c.authorAgentId, authorUserId: c.authorUserId, body: c.body, createdAt: c.createdAt })),
            null,
            2,
          ),
        );
      },
    };
  },
  parse(pkg, base) {
    const path = `${base}/comments.json`;
    return pkg.has(path) ? pkg.check(z.array(CommentSchema).max(MANY), pkg.json(path), path) : [];
  },
  apply: (ctx, issueId, items) =>
    items.map((comment) =>
      ctx.command.db.insert(schema.issueComments).values({
        id: newId(),
        companyId: ctx.command.companyId,
        issueId,
        body: comment.body,
        authorAgentId: ctx.map("agents", comment.authorAgentId),
        authorUserId: comment.authorUserId,
        createdAt: comment.createdAt ?? ctx.command.now,
        updatedAt: ctx.command.now,
      }),
    ),
};

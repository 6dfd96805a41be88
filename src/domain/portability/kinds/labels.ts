// Labels: labels.json ([{ id, name, color }]).
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { schema } from "../../../db/client";
import { inIds } from "../../../db/id-list";
import { createdIds, defineKind } from "./kind";
import { id, MANY, text } from "./fields";

/** The longest label name (an import's renames stay within it). */
export const LABEL_NAME_MAX = 100;

const LabelSchema = z.object({ id, name: z.string().trim().min(1).max(LABEL_NAME_MAX), color: text(20) });

export type PkgLabel = z.infer<typeof LabelSchema>;

export const labels = defineKind<PkgLabel[]>({
  key: "labels",
  noun: "label",
  exportPart({ db, companyId, batch }) {
    const rows = batch.add(db.select().from(schema.labels).where(eq(schema.labels.companyId, companyId)).orderBy(asc(schema.labels.name)));
    return {
      ids: () => rows.value.map((l) => l.id),
      write(ctx) {
        ctx.counts.labels = rows.value.length;
        ctx.put(
          "labels.json",
          JSON.stringify(
            rows.value.map((l) => ({ id: l.id, name: l.name, color: l.color })),
            null,
            2,
          ),
        );
      },
    };
  },
  parse: (pkg) => (pkg.has("labels.json") ? pkg.check(z.array(LabelSchema).max(MANY), pkg.json("labels.json"), "labels.json") : []),
  apply(ctx, items) {
    const { command, plan } = ctx;
    for (const label of items.filter((l) => plan.create.labels.has(l.id))) {
      const name = plan.names.get(label.id)!;
      ctx.statements.push(
        command.db
          .insert(schema.labels)
          .values({ id: plan.ids.labels.get(label.id)!, companyId: command.companyId, name, nameKey: name.toLowerCase(), color: label.color, ...ctx.at }),
      );
    }
  },
  undo: (ctx, plan) => ctx.db.delete(schema.labels).where(and(eq(schema.labels.companyId, ctx.companyId), inIds(schema.labels.id, createdIds(plan, "labels")))),
});

// Applying a company package, in the company's Durable Object: the plan (src/domain/portability/
// plan.ts) becomes rows, kind by kind (./kinds), with every relation mapped to the new ids; the
// rows are written in bounded D1 batches (IMPORT_BATCH statements each), parents before children,
// so every batch is consistent on its own. All or nothing: if a later batch fails, the rows of the
// earlier ones are deleted again (by their new ids) before the error is returned. The import is
// recorded under the package's hash in the last batch, so a retried apply of the same package
// returns the first result instead of importing twice.
import { and, eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import type { Statement } from "../../db/batch";
import { defineCommand, type CommandContext } from "../../company/command";
import { newId } from "../../crypto/random";
import { conflict, unprocessable } from "../errors";
import { bindPlaceholders, type Include, type PackageFiles } from "./format";
import { parsePackage } from "./parse";
import { loadTarget, planImport, planView, type CollisionStrategy, type ImportPlan } from "./plan";
import { KINDS } from "./kinds";
import type { ApplyContext } from "./kinds/kind";

/** Statements per D1 batch of an import. */
export const IMPORT_BATCH = 500;

export interface ApplyImportInput {
  files: PackageFiles;
  /** What the import takes from the package (references to what it leaves out are dropped). */
  include?: Partial<Include>;
  packageHash: string;
  collisionStrategy: CollisionStrategy;
  secretBindings?: Record<string, string>;
}

export const applyCompanyImport = defineCommand("company.importApply", async (ctx, _actor, input: ApplyImportInput) => {
  const [previous] = await ctx.batch([
    ctx.db
      .select({ id: schema.companyImports.id, result: schema.companyImports.result })
      .from(schema.companyImports)
      .where(and(eq(schema.companyImports.companyId, ctx.companyId), eq(schema.companyImports.packageHash, input.packageHash))),
  ]);
  // The first application's result, as stored (importResult's shape).
  if (previous[0]) return { ...(previous[0].result as ImportResult), importId: previous[0].id, duplicate: true };

  const pkg = await parsePackage(input.files, input.include);
  const target = await loadTarget(ctx.db, ctx.companyId);
  const plan = planImport(pkg, target, { collisionStrategy: input.collisionStrategy, secretBindings: input.secretBindings });
  if (plan.unboundSecrets.length) {
    throw unprocessable(`Bind the package's secret placeholders first (secretBindings): ${plan.unboundSecrets.join(", ")}`, {
      unboundSecrets: plan.unboundSecrets,
    });
  }
  const apply: ApplyContext = {
    command: ctx,
    plan,
    target,
    statements: [],
    closing: [],
    afterWrite: [],
    map: (kind, id) => (id ? (plan.ids[kind].get(id) ?? null) : null),
    bind: (value) => bindPlaceholders(value, plan.secretBindings, new Set()) as Record<string, unknown> | null,
    at: { createdAt: ctx.now, updatedAt: ctx.now },
  };
  for (const kind of KINDS) await kind.apply?.(apply, pkg[kind.key]);

  const importId = newId();
  const result = importResult(importId, plan);
  // The last batch: what the kinds close with (the issue counter), the import record and the activity entry.
  const closing: Statement[] = [
    ...apply.closing,
    ctx.db.insert(schema.companyImports).values({ id: importId, companyId: ctx.companyId, packageHash: input.packageHash, result, createdAt: ctx.now }),
    ctx.activity({
      action: "company.imported",
      entityType: "company",
      entityId: ctx.companyId,
      details: { importId, source: pkg.manifest.company, created: plan.counts.create, skipped: plan.counts.skip },
    }),
  ];
  const chunks: Statement[][] = [];
  for (let i = 0; i < apply.statements.length; i += IMPORT_BATCH) chunks.push(apply.statements.slice(i, i + IMPORT_BATCH));
  chunks.push(closing);
  let written = 0;
  try {
    for (const chunk of chunks) {
      // Rows of one batch may refer to each other in any order: foreign keys are checked at its commit.
      await ctx.batch([ctx.db.run(sql`PRAGMA defer_foreign_keys = on`), ...chunk]);
      written++;
    }
  } catch (err) {
    if (written > 0) await undoImport(ctx, plan);
    if (String((err as Error)?.message ?? err).includes("company_imports")) throw conflict("This package was imported concurrently; retry to read the result");
    throw err;
  }
  for (const done of apply.afterWrite) done();
  return { ...result, duplicate: false };
});

/** What an import answers (and keeps, to answer the same package again). */
const importResult = (importId: string, plan: ImportPlan) => ({
  importId,
  ...planView(plan),
  idMap: Object.fromEntries(Object.entries(plan.ids).map(([k, m]) => [k, Object.fromEntries(m)])),
});
type ImportResult = ReturnType<typeof importResult>;

/** Deletes what the earlier batches of a failed import wrote (by the plan's new ids), children's kinds first; dependent rows go with them. */
async function undoImport(ctx: CommandContext, plan: ImportPlan) {
  try {
    await ctx.batch([ctx.db.run(sql`PRAGMA defer_foreign_keys = on`), ...[...KINDS].reverse().flatMap((kind) => (kind.undo ? [kind.undo(ctx, plan)] : []))]);
  } catch (err) {
    console.error("undoing a failed import failed", err);
  }
}

export const portabilityCommands = [applyCompanyImport];

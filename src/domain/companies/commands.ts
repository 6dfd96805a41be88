// Company mutations, run inside the company's Durable Object.
import type { Statement } from "../../db/batch";
import { and, eq, inArray } from "drizzle-orm";
import { schema } from "../../db/client";
import type { COMPANY_STATUSES } from "../../db/schema/companies";
import { defineCommand, type CommandContext } from "../../company/command";
import { notFound, unprocessable } from "../errors";
import { setCompanyBudget } from "../budgets/commands";
import { cancelPendingWakeupsStatement } from "../wakeups/enqueue";
import { cancelLiveRunsStatements } from "../runs/lifecycle";
import { companyView } from "./view";

export interface CompanyFields {
  name?: string;
  description?: string | null;
  budgetMonthlyCents?: number;
  status?: (typeof COMPANY_STATUSES)[number];
  brandColor?: string | null;
  logoAssetId?: string | null;
  requireBoardApprovalForNewAgents?: boolean;
  feedbackSharingConsent?: { enabled: boolean; note?: string } | null;
}

/** Agent statuses that an archive pauses. */
const PAUSABLE_AGENT_STATUSES = ["active", "idle", "running", "error"] as const;

async function loadCompany(ctx: CommandContext) {
  const row = await ctx.db.query.companies.findFirst({ where: eq(schema.companies.id, ctx.companyId) });
  if (!row) throw notFound("Company not found");
  return row;
}

export const updateCompany = defineCommand(
  "company.update",
  async (ctx, actor, input: { fields: CompanyFields; action: "company.updated" | "company.branding_updated" }) => {
    const before = await loadCompany(ctx);
    const { fields } = input;
    const { db } = ctx;

    if (fields.logoAssetId) {
      const asset = await db.query.assets.findFirst({ where: eq(schema.assets.id, fields.logoAssetId) });
      if (!asset || asset.companyId !== ctx.companyId) {
        throw unprocessable("logoAssetId must reference an asset of this company", { logoAssetId: fields.logoAssetId });
      }
    }

    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      const previous = (before as Record<string, unknown>)[key] ?? null;
      if (previous !== value) changes[key] = { from: previous, to: value };
    }

    // A budget change goes through the budget rules (above observed spend, policy sync, thresholds).
    if (fields.budgetMonthlyCents !== undefined && fields.budgetMonthlyCents !== before.budgetMonthlyCents) {
      await setCompanyBudget.run(ctx, actor, { budgetMonthlyCents: fields.budgetMonthlyCents });
    }

    const archiving = fields.status === "archived" && before.status !== "archived";
    const unarchiving = fields.status !== undefined && fields.status !== "archived" && before.status === "archived";
    const statements: Statement[] = [
      db
        .update(schema.companies)
        .set({
          ...fields,
          ...(archiving ? { archivedAt: ctx.now } : {}),
          ...(unarchiving ? { archivedAt: null } : {}),
          updatedAt: ctx.now,
        })
        .where(eq(schema.companies.id, ctx.companyId)),
    ];
    if (archiving) statements.push(...archiveCascade(ctx));
    const replacedLogo =
      fields.logoAssetId !== undefined && before.logoAssetId && before.logoAssetId !== fields.logoAssetId
        ? await db.query.assets.findFirst({ where: eq(schema.assets.id, before.logoAssetId) })
        : undefined;
    if (replacedLogo) statements.push(db.delete(schema.assets).where(eq(schema.assets.id, replacedLogo.id)));
    statements.push(
      ctx.activity({
        action: archiving ? "company.archived" : input.action,
        entityType: "company",
        entityId: ctx.companyId,
        details: { changes },
      }),
    );
    await ctx.batch(statements);
    if (replacedLogo) await ctx.env.FILES.delete(replacedLogo.objectKey);
    return companyView(await loadCompany(ctx));
  },
);

/** Archive side effects: active agents are paused with reason `company_archived`, their waiting wake-ups cancelled. */
function archiveCascade(ctx: CommandContext): Statement[] {
  return [
    cancelPendingWakeupsStatement(ctx, null),
    ...cancelLiveRunsStatements(ctx, null, "company_inactive"),
    ctx.db
      .update(schema.agents)
      .set({ status: "paused", pauseReason: "company_archived", updatedAt: ctx.now })
      .where(and(eq(schema.agents.companyId, ctx.companyId), inArray(schema.agents.status, [...PAUSABLE_AGENT_STATUSES]))),
  ];
}

export const archiveCompany = defineCommand("company.archive", async (ctx, actor, _input: Record<string, never>) => {
  return updateCompany.run(ctx, actor, { fields: { status: "archived" }, action: "company.updated" });
});

/** Irreversible: the company row goes, and every company-scoped row with it (ON DELETE CASCADE), then its R2 objects. */
export const deleteCompany = defineCommand("company.delete", async (ctx, _actor, _input: Record<string, never>) => {
  await loadCompany(ctx);
  await ctx.db.delete(schema.companies).where(eq(schema.companies.id, ctx.companyId)).run();
  const prefix = `companies/${ctx.companyId}/`;
  let cursor: string | undefined;
  do {
    const listing = await ctx.env.FILES.list({ prefix, cursor });
    if (listing.objects.length) await ctx.env.FILES.delete(listing.objects.map((o) => o.key));
    cursor = listing.truncated ? listing.cursor : undefined;
  } while (cursor);
  return { deleted: true as const, id: ctx.companyId };
});

export const companyCommands = [updateCompany, archiveCompany, deleteCompany];

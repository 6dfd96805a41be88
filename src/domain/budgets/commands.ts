// Budget mutations, run inside the company's Durable Object: policy upsert, the company's
// monthly budget, and resolution of budget incidents.
import type { Statement } from "../../db/batch";
import { inIds } from "../../db/id-list";
import { and, eq, inArray } from "drizzle-orm";
import { schema } from "../../db/client";
import type { BUDGET_INCIDENT_RESOLUTIONS } from "../../db/schema/budgets";
import { defineCommand, type CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { conflict, notFound, unprocessable } from "../errors";
import { newId } from "../../crypto/random";
import { companyView } from "../companies/view";
import { enforcementStatements, incidentKeyOf, resumeScopeStatements, type BudgetPolicyRow } from "./enforcement";
import {
  budgetPolicyUpsertStatement,
  defaultWindowKind,
  isMonthlyBudgetPolicy,
  type BudgetPolicyFields,
  type BudgetScope,
  type BudgetWindowKind,
} from "./policy-sync";
import { budgetIncidentView, budgetPolicyStateView } from "./view";
import { currentWindow, observedSpendCents } from "./windows";

type Batch = [Statement, ...Statement[]];

export interface BudgetPolicyInput {
  scopeType: BudgetScope;
  scopeId?: string;
  amountCents: number;
  metric?: "billed_cents";
  windowKind?: BudgetWindowKind;
  warnPercent?: number;
  hardStopEnabled?: boolean;
  notifyEnabled?: boolean;
  isActive?: boolean;
}

/** companies/agents.budgetMonthlyCents mirror their monthly billed-cents policy (0 when inactive). */
function mirrorBudgetStatements(ctx: CommandContext, p: Pick<BudgetPolicyRow, "scopeType" | "scopeId" | "metric" | "windowKind" | "amountCents" | "isActive">) {
  if (!isMonthlyBudgetPolicy(p)) return [];
  const amount = p.isActive ? p.amountCents : 0;
  if (p.scopeType === "company") {
    return [ctx.db.update(schema.companies).set({ budgetMonthlyCents: amount, updatedAt: ctx.now }).where(eq(schema.companies.id, ctx.companyId))];
  }
  return [
    ctx.db
      .update(schema.agents)
      .set({ budgetMonthlyCents: amount, updatedAt: ctx.now })
      .where(and(eq(schema.agents.companyId, ctx.companyId), eq(schema.agents.id, p.scopeId))),
  ];
}

async function assertScopeInCompany(ctx: CommandContext, scopeType: BudgetScope, scopeId: string) {
  if (scopeType === "company") {
    if (scopeId !== ctx.companyId) throw unprocessable("A company-scope policy's scopeId must be the company id", { scopeId });
    return;
  }
  const table = scopeType === "agent" ? schema.agents : schema.projects;
  const [row] = await ctx.db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.companyId, ctx.companyId), eq(table.id, scopeId)));
  if (!row) throw unprocessable(`scopeId must reference a ${scopeType} of this company`, { scopeType, scopeId });
}

/**
 * Writes a policy (with the mirrored entity budget, any incidents its new amount opens and the
 * activity entry) after checking that a changed positive amount is above the window's observed spend.
 */
async function applyPolicy(ctx: CommandContext, actor: Actor, fields: BudgetPolicyFields, existing: BudgetPolicyRow | undefined, action: string) {
  const { db } = ctx;
  const window = currentWindow(fields.windowKind, ctx.now);
  const observedCents = await observedSpendCents(db, ctx.companyId, fields.scopeType, fields.scopeId, window);
  const amountChanges = !existing || existing.amountCents !== fields.amountCents || (!existing.isActive && fields.isActive);
  if (fields.isActive && fields.amountCents > 0 && amountChanges && fields.amountCents <= observedCents) {
    throw unprocessable("amountCents must be above the observed spend in the budget window", {
      amountCents: fields.amountCents,
      observedCents,
      windowKey: window.key,
    });
  }
  const policy: BudgetPolicyRow = {
    id: existing?.id ?? newId(),
    ...fields,
    createdAt: existing?.createdAt ?? ctx.now,
    updatedAt: ctx.now,
  };
  const incidents = await db
    .select()
    .from(schema.budgetIncidents)
    .where(
      and(
        eq(schema.budgetIncidents.companyId, ctx.companyId),
        eq(schema.budgetIncidents.scopeType, policy.scopeType),
        eq(schema.budgetIncidents.scopeId, policy.scopeId),
        eq(schema.budgetIncidents.windowKey, window.key),
      ),
    );
  const enforcement = enforcementStatements(ctx, [{ policy, window, observedCents }], new Set(incidents.map(incidentKeyOf)));
  await ctx.batch([
    budgetPolicyUpsertStatement(db, { ...fields, id: policy.id, now: ctx.now }),
    ...mirrorBudgetStatements(ctx, policy),
    ...enforcement.statements,
    ctx.activity({
      action,
      entityType: action.startsWith("company.") ? "company" : "budget_policy",
      entityId: action.startsWith("company.") ? ctx.companyId : policy.id,
      agentId: policy.scopeType === "agent" ? policy.scopeId : null,
      details: {
        policyId: policy.id,
        scopeType: policy.scopeType,
        scopeId: policy.scopeId,
        amountCents: policy.amountCents,
        previousAmountCents: existing?.amountCents ?? null,
        windowKind: policy.windowKind,
        warnPercent: policy.warnPercent,
        hardStopEnabled: policy.hardStopEnabled,
        notifyEnabled: policy.notifyEnabled,
        isActive: policy.isActive,
      },
    }),
  ] as Batch);
  return { policy, window, observedCents, created: !existing };
}

export const upsertBudgetPolicy = defineCommand("budget.policy.upsert", async (ctx, actor, input: BudgetPolicyInput) => {
  const scopeId = input.scopeId ?? (input.scopeType === "company" ? ctx.companyId : undefined);
  if (!scopeId) throw unprocessable(`scopeId is required for a ${input.scopeType}-scope policy`);
  await assertScopeInCompany(ctx, input.scopeType, scopeId);
  const windowKind = input.windowKind ?? defaultWindowKind(input.scopeType);
  const metric = input.metric ?? "billed_cents";
  const existing = await ctx.db.query.budgetPolicies.findFirst({
    where: and(
      eq(schema.budgetPolicies.companyId, ctx.companyId),
      eq(schema.budgetPolicies.scopeType, input.scopeType),
      eq(schema.budgetPolicies.scopeId, scopeId),
      eq(schema.budgetPolicies.metric, metric),
      eq(schema.budgetPolicies.windowKind, windowKind),
    ),
  });
  // Omitted fields keep their stored value on update and take the documented default on create.
  const fields: BudgetPolicyFields = {
    companyId: ctx.companyId,
    scopeType: input.scopeType,
    scopeId,
    metric,
    windowKind,
    amountCents: input.amountCents,
    warnPercent: input.warnPercent ?? existing?.warnPercent ?? 80,
    hardStopEnabled: input.hardStopEnabled ?? existing?.hardStopEnabled ?? true,
    notifyEnabled: input.notifyEnabled ?? existing?.notifyEnabled ?? true,
    isActive: input.isActive ?? existing?.isActive ?? true,
  };
  const result = await applyPolicy(ctx, actor, fields, existing, existing ? "budget_policy.updated" : "budget_policy.created");
  return { ...budgetPolicyStateView(result.policy, result.window, result.observedCents), created: result.created };
});

export const setCompanyBudget = defineCommand("budget.company.set", async (ctx, actor, input: { budgetMonthlyCents: number }) => {
  const company = await ctx.db.query.companies.findFirst({ where: eq(schema.companies.id, ctx.companyId) });
  if (!company) throw notFound("Company not found");
  const existing = await ctx.db.query.budgetPolicies.findFirst({
    where: and(
      eq(schema.budgetPolicies.companyId, ctx.companyId),
      eq(schema.budgetPolicies.scopeType, "company"),
      eq(schema.budgetPolicies.scopeId, ctx.companyId),
      eq(schema.budgetPolicies.metric, "billed_cents"),
      eq(schema.budgetPolicies.windowKind, "calendar_month_utc"),
    ),
  });
  await applyPolicy(
    ctx,
    actor,
    {
      companyId: ctx.companyId,
      scopeType: "company",
      scopeId: ctx.companyId,
      metric: "billed_cents",
      windowKind: "calendar_month_utc",
      amountCents: input.budgetMonthlyCents,
      warnPercent: existing?.warnPercent ?? 80,
      hardStopEnabled: existing?.hardStopEnabled ?? true,
      notifyEnabled: existing?.notifyEnabled ?? true,
      isActive: input.budgetMonthlyCents > 0,
    },
    existing,
    "company.budget_updated",
  );
  const after = await ctx.db.query.companies.findFirst({ where: eq(schema.companies.id, ctx.companyId) });
  return companyView(after!);
});

export interface ResolveIncidentInput {
  incidentId: string;
  action: (typeof BUDGET_INCIDENT_RESOLUTIONS)[number];
  amountCents?: number;
}

/** Allowed resolutions by incident status: only open incidents can be resolved, once. */
const RESOLVABLE_STATUSES = new Set(["open"]);

export const resolveBudgetIncident = defineCommand("budget.incident.resolve", async (ctx, actor, input: ResolveIncidentInput) => {
  const { db } = ctx;
  const incident = await db.query.budgetIncidents.findFirst({
    where: and(eq(schema.budgetIncidents.companyId, ctx.companyId), eq(schema.budgetIncidents.id, input.incidentId)),
  });
  if (!incident) throw notFound("Budget incident not found");
  if (!RESOLVABLE_STATUSES.has(incident.status)) {
    throw conflict("Budget incident is already resolved", { incidentId: incident.id, status: incident.status, resolution: incident.resolution });
  }
  const userId = actor.type === "board" ? actor.userId : null;
  const statements: Statement[] = [];
  let resolvedIds = [incident.id];
  const raise = input.action === "raise_budget_and_resume";

  if (raise) {
    const amountCents = input.amountCents;
    if (amountCents === undefined) throw unprocessable("amountCents is required to raise the budget");
    const policy = await db.query.budgetPolicies.findFirst({
      where: and(eq(schema.budgetPolicies.companyId, ctx.companyId), eq(schema.budgetPolicies.id, incident.policyId)),
    });
    if (!policy) throw unprocessable("The incident's budget policy no longer exists", { policyId: incident.policyId });
    const window = currentWindow(policy.windowKind, ctx.now);
    const observedCents = await observedSpendCents(db, ctx.companyId, policy.scopeType, policy.scopeId, window);
    if (amountCents <= observedCents) {
      throw unprocessable("amountCents must be above the observed spend in the budget window", { amountCents, observedCents, windowKey: window.key });
    }
    const raised: BudgetPolicyRow = { ...policy, amountCents, isActive: true, updatedAt: ctx.now };
    // Every open incident of this policy in the window is settled by the raise.
    const open = await db
      .select()
      .from(schema.budgetIncidents)
      .where(
        and(eq(schema.budgetIncidents.companyId, ctx.companyId), eq(schema.budgetIncidents.policyId, policy.id), eq(schema.budgetIncidents.status, "open")),
      );
    resolvedIds = [...new Set([incident.id, ...open.map((o) => o.id)])];
    const all = await db
      .select()
      .from(schema.budgetIncidents)
      .where(
        and(
          eq(schema.budgetIncidents.companyId, ctx.companyId),
          eq(schema.budgetIncidents.scopeType, policy.scopeType),
          eq(schema.budgetIncidents.scopeId, policy.scopeId),
          eq(schema.budgetIncidents.windowKey, window.key),
        ),
      );
    const enforcement = enforcementStatements(ctx, [{ policy: raised, window, observedCents }], new Set(all.map(incidentKeyOf)));
    statements.push(
      db.update(schema.budgetPolicies).set({ amountCents, isActive: true, updatedAt: ctx.now }).where(eq(schema.budgetPolicies.id, policy.id)),
      ...mirrorBudgetStatements(ctx, raised),
      ...resumeScopeStatements(ctx, policy.scopeType, policy.scopeId),
      ...enforcement.statements,
    );
  }

  const approvalIds = (
    await db.select({ id: schema.budgetIncidents.approvalId }).from(schema.budgetIncidents).where(inIds(schema.budgetIncidents.id, resolvedIds))
  )
    .map((r) => r.id)
    .filter((id): id is string => !!id);

  statements.push(
    db
      .update(schema.budgetIncidents)
      .set({ status: "resolved", resolution: input.action, resolvedAt: ctx.now, resolvedByUserId: userId, updatedAt: ctx.now })
      // Guarded on status: a resolution never overwrites another.
      .where(and(inIds(schema.budgetIncidents.id, resolvedIds), eq(schema.budgetIncidents.status, "open"))),
  );
  if (approvalIds.length) {
    statements.push(
      db
        .update(schema.approvals)
        .set({
          status: raise ? "approved" : "rejected",
          decisionNote: raise ? `Budget raised to ${input.amountCents} cents and scope resumed` : "Budget incident resolved: scope kept paused",
          decidedByUserId: userId,
          decidedAt: ctx.now,
          updatedAt: ctx.now,
        })
        .where(
          and(
            eq(schema.approvals.companyId, ctx.companyId),
            inIds(schema.approvals.id, approvalIds),
            inArray(schema.approvals.status, ["pending", "revision_requested"]),
          ),
        ),
    );
  }
  statements.push(
    ctx.activity({
      action: "budget.incident_resolved",
      entityType: "budget_incident",
      entityId: incident.id,
      agentId: incident.scopeType === "agent" ? incident.scopeId : null,
      details: {
        action: input.action,
        scopeType: incident.scopeType,
        scopeId: incident.scopeId,
        kind: incident.kind,
        ...(raise ? { amountCents: input.amountCents, previousAmountCents: incident.amountCents } : {}),
        resolvedIncidentIds: resolvedIds,
      },
    }),
  );
  await ctx.batch(statements);
  const after = await db.query.budgetIncidents.findFirst({ where: eq(schema.budgetIncidents.id, incident.id) });
  return budgetIncidentView(after!);
});

export const budgetCommands = [upsertBudgetPolicy, setCompanyBudget, resolveBudgetIncident];

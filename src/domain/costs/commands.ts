// Cost and finance mutations, run inside the company's Durable Object. Reporting a cost event
// stores it, keeps the agent and company month-spend counters exact, evaluates every active
// budget policy whose scope the event touches, and logs `cost.reported`, in one D1 batch.
import { and, eq, inArray, or } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { schema } from "../../db/client";
import type { BillingType } from "../../db/schema/costs";
import { defineCommand, type CommandContext } from "../../company/command";
import type { Actor } from "../../http/actor-types";
import { notFound, unprocessable } from "../../http/errors";
import { newId } from "../../crypto/random";
import { activityInsert } from "../activity/record";
import { enforcementStatements, incidentKeyOf, type PolicySpend } from "../budgets/enforcement";
import { currentWindow, inWindow, scopeSpendQuery, spendKey, type BudgetWindow } from "../budgets/windows";
import type { BudgetScope } from "../budgets/policy-sync";

export interface CostEventInput {
  agentId: string;
  provider: string;
  model: string;
  costCents: number;
  /** Normalised ISO-8601 UTC. */
  occurredAt: string;
  issueId?: string | null;
  projectId?: string | null;
  goalId?: string | null;
  heartbeatRunId?: string | null;
  billingCode?: string | null;
  biller?: string | null;
  billingType?: BillingType;
  inputTokens?: number;
  cachedInputTokens?: number;
  outputTokens?: number;
}

export type CostEventRow = typeof schema.costEvents.$inferSelect;
export type FinanceEventRow = typeof schema.financeEvents.$inferSelect;

type Batch = [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

/** The policies and incidents that can concern an event of this agent (and project, given or via its issue). */
function scopeFilter(
  ctx: CommandContext,
  cols: { scopeType: typeof schema.budgetPolicies.scopeType; scopeId: typeof schema.budgetPolicies.scopeId } | typeof schema.budgetIncidents,
  input: CostEventInput,
) {
  const projectIds = input.projectId
    ? [eq(cols.scopeId, input.projectId)]
    : input.issueId
      ? [
          inArray(
            cols.scopeId,
            ctx.db
              .select({ id: schema.issues.projectId })
              .from(schema.issues)
              .where(and(eq(schema.issues.companyId, ctx.companyId), eq(schema.issues.id, input.issueId))),
          ),
        ]
      : [];
  return or(
    and(eq(cols.scopeType, "company"), eq(cols.scopeId, ctx.companyId)),
    and(eq(cols.scopeType, "agent"), eq(cols.scopeId, input.agentId)),
    ...projectIds.map((p) => and(eq(cols.scopeType, "project"), p)),
  );
}

export const reportCostEvent = defineCommand(async (ctx, actor, input: CostEventInput) => {
  const { db } = ctx;
  const month = currentWindow("calendar_month_utc", ctx.now);
  const lifetime = currentWindow("lifetime", ctx.now);

  // One round trip for everything the rules need.
  const none = db.select({ id: schema.companies.id }).from(schema.companies).where(eq(schema.companies.id, "-"));
  const [agentRows, companyRows, issueRows, projectRows, goalRows, policies, incidents] = (await db.batch([
    db.select().from(schema.agents).where(eq(schema.agents.id, input.agentId)),
    db.select().from(schema.companies).where(eq(schema.companies.id, ctx.companyId)),
    input.issueId
      ? db
          .select({ id: schema.issues.id, projectId: schema.issues.projectId })
          .from(schema.issues)
          .where(and(eq(schema.issues.companyId, ctx.companyId), eq(schema.issues.id, input.issueId)))
      : none,
    input.projectId
      ? db
          .select({ id: schema.projects.id })
          .from(schema.projects)
          .where(and(eq(schema.projects.companyId, ctx.companyId), eq(schema.projects.id, input.projectId)))
      : none,
    input.goalId
      ? db
          .select({ id: schema.goals.id })
          .from(schema.goals)
          .where(and(eq(schema.goals.companyId, ctx.companyId), eq(schema.goals.id, input.goalId)))
      : none,
    db
      .select()
      .from(schema.budgetPolicies)
      .where(and(eq(schema.budgetPolicies.companyId, ctx.companyId), eq(schema.budgetPolicies.isActive, true), scopeFilter(ctx, schema.budgetPolicies, input))),
    db
      .select()
      .from(schema.budgetIncidents)
      .where(
        and(
          eq(schema.budgetIncidents.companyId, ctx.companyId),
          inArray(schema.budgetIncidents.windowKey, [month.key, lifetime.key]),
          scopeFilter(ctx, schema.budgetIncidents, input),
        ),
      ),
  ] as unknown as Batch)) as unknown as [
    (typeof schema.agents.$inferSelect)[],
    (typeof schema.companies.$inferSelect)[],
    { id: string; projectId: string | null }[],
    { id: string }[],
    { id: string }[],
    (typeof schema.budgetPolicies.$inferSelect)[],
    (typeof schema.budgetIncidents.$inferSelect)[],
  ];

  const company = companyRows[0];
  if (!company) throw notFound("Company not found");
  const agent = agentRows[0];
  if (!agent || agent.companyId !== ctx.companyId) {
    throw unprocessable("agentId must reference an agent of this company", { agentId: input.agentId });
  }
  if (input.issueId && !issueRows.length) throw unprocessable("issueId must reference an issue of this company", { issueId: input.issueId });
  if (input.projectId && !projectRows.length) {
    throw unprocessable("projectId must reference a project of this company", { projectId: input.projectId });
  }
  if (input.goalId && !goalRows.length) throw unprocessable("goalId must reference a goal of this company", { goalId: input.goalId });
  // An event for an issue is attributed to the issue's project unless a project is given.
  const projectId = input.projectId ?? issueRows[0]?.projectId ?? null;

  // Spend of each (scope, window) before this event: month counters when they are current, else indexed SUMs.
  const before = new Map<string, number>();
  if (company.spentMonth === month.key) before.set(spendKey("company", ctx.companyId, month.key), company.spentMonthlyCents);
  if (agent.spentMonth === month.key) before.set(spendKey("agent", agent.id, month.key), agent.spentMonthlyCents);
  const windowOf = (kind: string): BudgetWindow => (kind === "lifetime" ? lifetime : month);
  const needed: Array<{ scopeType: BudgetScope; scopeId: string; window: BudgetWindow }> = [
    { scopeType: "company", scopeId: ctx.companyId, window: month },
    { scopeType: "agent", scopeId: agent.id, window: month },
    ...policies
      .filter((p) => p.scopeType !== "project" || p.scopeId === projectId)
      .map((p) => ({ scopeType: p.scopeType, scopeId: p.scopeId, window: windowOf(p.windowKind) })),
  ];
  const missing = needed.filter((n, i) => {
    const key = spendKey(n.scopeType, n.scopeId, n.window.key);
    return !before.has(key) && needed.findIndex((m) => spendKey(m.scopeType, m.scopeId, m.window.key) === key) === i;
  });
  if (missing.length) {
    const sums = (await db.batch(
      missing.map((m) => scopeSpendQuery(db, ctx.companyId, m.scopeType, m.scopeId, m.window)) as unknown as Batch,
    )) as unknown as { cents: number }[][];
    missing.forEach((m, i) => before.set(spendKey(m.scopeType, m.scopeId, m.window.key), sums[i][0]?.cents ?? 0));
  }
  const after = (scopeType: BudgetScope, scopeId: string, window: BudgetWindow) =>
    (before.get(spendKey(scopeType, scopeId, window.key)) ?? 0) + (inWindow(window, input.occurredAt) ? input.costCents : 0);

  const row: CostEventRow = {
    id: newId(),
    companyId: ctx.companyId,
    agentId: agent.id,
    issueId: input.issueId ?? null,
    projectId,
    goalId: input.goalId ?? null,
    heartbeatRunId: input.heartbeatRunId ?? null,
    billingCode: input.billingCode ?? null,
    provider: input.provider,
    biller: input.biller ?? input.provider,
    billingType: input.billingType ?? "unknown",
    model: input.model,
    inputTokens: input.inputTokens ?? 0,
    cachedInputTokens: input.cachedInputTokens ?? 0,
    outputTokens: input.outputTokens ?? 0,
    costCents: input.costCents,
    occurredAt: input.occurredAt,
    createdAt: ctx.now,
  };

  const spends: PolicySpend[] = policies
    .filter((p) => p.scopeType !== "project" || p.scopeId === projectId)
    .map((p) => ({ policy: p, window: windowOf(p.windowKind), observedCents: after(p.scopeType, p.scopeId, windowOf(p.windowKind)) }));
  const existing = new Set(incidents.map(incidentKeyOf));
  const enforcement = enforcementStatements(ctx, spends, existing);

  await db.batch([
    db.insert(schema.costEvents).values(row),
    db
      .update(schema.agents)
      .set({ spentMonthlyCents: after("agent", agent.id, month), spentMonth: month.key })
      .where(eq(schema.agents.id, agent.id)),
    db
      .update(schema.companies)
      .set({ spentMonthlyCents: after("company", ctx.companyId, month), spentMonth: month.key })
      .where(eq(schema.companies.id, ctx.companyId)),
    ...enforcement.statements,
    activityInsert(db, {
      companyId: ctx.companyId,
      actor,
      action: "cost.reported",
      entityType: "cost_event",
      entityId: row.id,
      agentId: agent.id,
      details: {
        provider: row.provider,
        biller: row.biller,
        model: row.model,
        billingType: row.billingType,
        costCents: row.costCents,
        occurredAt: row.occurredAt,
        ...(row.projectId ? { projectId: row.projectId } : {}),
        ...(row.issueId ? { issueId: row.issueId } : {}),
        ...(enforcement.opened.length ? { incidentIds: enforcement.opened.map((o) => o.id) } : {}),
      },
      now: ctx.now,
    }),
  ]);
  return row;
});

export interface FinanceEventInput {
  kind: FinanceEventRow["kind"];
  direction: FinanceEventRow["direction"];
  amountCents: number;
  currency: string;
  estimated: boolean;
  /** Normalised ISO-8601 UTC; the route defaults it to now. */
  occurredAt: string | null;
  biller?: string | null;
  provider?: string | null;
  costEventId?: string | null;
  description?: string | null;
  metadata?: Record<string, unknown> | null;
}

export const recordFinanceEvent = defineCommand(async (ctx, actor: Actor, input: FinanceEventInput) => {
  const { db } = ctx;
  if (input.costEventId) {
    const event = await db.query.costEvents.findFirst({
      where: and(eq(schema.costEvents.companyId, ctx.companyId), eq(schema.costEvents.id, input.costEventId)),
    });
    if (!event) throw unprocessable("costEventId must reference a cost event of this company", { costEventId: input.costEventId });
  }
  const row: FinanceEventRow = {
    id: newId(),
    companyId: ctx.companyId,
    kind: input.kind,
    direction: input.direction,
    amountCents: input.amountCents,
    currency: input.currency,
    estimated: input.estimated,
    biller: input.biller ?? null,
    provider: input.provider ?? null,
    costEventId: input.costEventId ?? null,
    description: input.description ?? null,
    metadata: input.metadata ?? null,
    occurredAt: input.occurredAt ?? ctx.now,
    createdByUserId: actor.type === "board" ? actor.userId : null,
    createdAt: ctx.now,
  };
  await db.batch([
    db.insert(schema.financeEvents).values(row),
    activityInsert(db, {
      companyId: ctx.companyId,
      actor,
      action: "finance_event.recorded",
      entityType: "finance_event",
      entityId: row.id,
      details: { kind: row.kind, direction: row.direction, amountCents: row.amountCents, currency: row.currency, estimated: row.estimated },
      now: ctx.now,
    }),
  ]);
  return row;
});

export const costCommands = {
  "cost.report": reportCostEvent,
  "finance.record": recordFinanceEvent,
};

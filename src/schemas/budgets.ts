// Budget policy, incident and overview schemas.
import { z } from "@hono/zod-openapi";
import { BUDGET_INCIDENT_KINDS, BUDGET_INCIDENT_RESOLUTIONS, BUDGET_INCIDENT_STATUSES, BUDGET_SCOPE_TYPES, BUDGET_WINDOW_KINDS } from "../db/schema/budgets";
import { Timestamp, Uuid } from "./common";

const Cents = z.number().int().min(0).max(1_000_000_000_00);
const ScopeType = z.enum(BUDGET_SCOPE_TYPES);
const WindowKind = z.enum(BUDGET_WINDOW_KINDS);

export const UpsertBudgetPolicySchema = z
  .object({
    scopeType: ScopeType,
    scopeId: Uuid.optional().openapi({
      description: "The company, agent or project id (must belong to the company); optional for company scope",
    }),
    amountCents: Cents.openapi({ description: "Budget in cents; 0 = no budget. A changed positive amount must be above the window's observed spend (422)" }),
    metric: z.literal("billed_cents").optional().openapi({ description: "Default `billed_cents` (the only metric)" }),
    windowKind: WindowKind.optional().openapi({ description: "Default `calendar_month_utc` for company and agent, `lifetime` for project" }),
    warnPercent: z.number().int().min(1).max(100).optional().openapi({ description: "Soft threshold percent, default 80" }),
    hardStopEnabled: z.boolean().optional().openapi({ description: "Pause the scope at 100 % (default true)" }),
    notifyEnabled: z.boolean().optional().openapi({ description: "Open a soft incident at the warn threshold (default true)" }),
    isActive: z.boolean().optional().openapi({ description: "Default true" }),
  })
  .openapi("UpsertBudgetPolicy");

const PolicyFields = {
  id: z.string(),
  companyId: z.string(),
  scopeType: ScopeType,
  scopeId: z.string(),
  metric: z.string(),
  windowKind: WindowKind,
  amountCents: z.number().int(),
  warnPercent: z.number().int(),
  hardStopEnabled: z.boolean(),
  notifyEnabled: z.boolean(),
  isActive: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

const PolicyStateFields = {
  ...PolicyFields,
  windowKey: z.string().openapi({ description: "`YYYY-MM` (UTC) or `lifetime`" }),
  observedCents: z.number().int(),
  warnThresholdCents: z.number().int(),
  remainingCents: z.number().int(),
  utilizationPercent: z.number(),
  status: z.enum(["inactive", "ok", "warning", "exceeded"]),
};

export const BudgetPolicyStateSchema = z.object(PolicyStateFields).openapi("BudgetPolicyState");
export const UpsertedBudgetPolicySchema = z.object({ ...PolicyStateFields, created: z.boolean() }).openapi("UpsertedBudgetPolicy");

export const BudgetIncidentSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    policyId: z.string(),
    scopeType: ScopeType,
    scopeId: z.string(),
    kind: z.enum(BUDGET_INCIDENT_KINDS),
    windowKind: WindowKind,
    windowKey: z.string(),
    amountCents: z.number().int(),
    thresholdCents: z.number().int(),
    observedCents: z.number().int(),
    status: z.enum(BUDGET_INCIDENT_STATUSES),
    resolution: z.enum(BUDGET_INCIDENT_RESOLUTIONS).nullable(),
    approvalId: z.string().nullable(),
    resolvedAt: z.string().nullable(),
    resolvedByUserId: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("BudgetIncident");

export const BudgetOverviewSchema = z
  .object({
    companyId: z.string(),
    asOf: Timestamp,
    policies: z.array(BudgetPolicyStateSchema),
    activeIncidents: z.array(BudgetIncidentSchema),
    pausedAgentCount: z.number().int().openapi({ description: "Agents paused by a budget hard stop" }),
    pausedProjectCount: z.number().int().openapi({ description: "Projects paused by a budget hard stop" }),
    pendingApprovalCount: z.number().int().openapi({ description: "Pending `budget_override_required` approvals" }),
  })
  .openapi("BudgetOverview");

export const BudgetIncidentListQuery = z.object({
  status: z.enum(BUDGET_INCIDENT_STATUSES).optional().openapi({ description: "open or resolved (default both)" }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const CompanyBudgetSchema = z.object({ budgetMonthlyCents: Cents }).openapi("CompanyBudget");

const NewBudgetCents = z.number().int().min(1).max(1_000_000_000_00);

export const ResolveIncidentSchema = z
  .discriminatedUnion("action", [
    z.object({ action: z.literal("keep_paused") }),
    z.object({
      action: z.literal("raise_budget_and_resume"),
      amountCents: NewBudgetCents.optional().openapi({ description: "New budget in cents; must exceed the observed spend (422)" }),
      amount: NewBudgetCents.optional().openapi({ description: "Alias of amountCents (what the incumbent's clients send); one of the two is required" }),
    }),
  ])
  .superRefine((body, ctx) => {
    if (body.action !== "raise_budget_and_resume") return;
    if (body.amountCents === undefined && body.amount === undefined) {
      ctx.addIssue({ code: "custom", path: ["amountCents"], message: "amountCents (or amount) is required for raise_budget_and_resume" });
    } else if (body.amountCents !== undefined && body.amount !== undefined && body.amountCents !== body.amount) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: "amount and amountCents disagree; send one" });
    }
  })
  .openapi("ResolveBudgetIncident");

/** The resolution the budget command takes: the raise amount under its one name. */
export type BudgetIncidentResolution = { action: "keep_paused" } | { action: "raise_budget_and_resume"; amountCents: number };

export function incidentResolution(body: z.infer<typeof ResolveIncidentSchema>): BudgetIncidentResolution {
  return body.action === "keep_paused" ? body : { action: body.action, amountCents: (body.amountCents ?? body.amount)! };
}

export const IncidentParams = z.object({
  companyId: z
    .string()
    .min(1)
    .openapi({ param: { name: "companyId", in: "path" } }),
  incidentId: z
    .string()
    .min(1)
    .openapi({ param: { name: "incidentId", in: "path" } }),
});

// Cost-event, cost-report and finance-event request and response schemas.
import { z } from "@hono/zod-openapi";
import { billingTypes, FINANCE_DIRECTIONS, FINANCE_EVENT_KINDS } from "../db/schema/costs";
import { JsonObject, Timestamp, Uuid } from "./common";

const Cents = z.number().int().min(0).max(1_000_000_000_00);
const Tokens = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const Label = (max: number) => z.string().trim().min(1).max(max);
/** An ISO-8601 datetime (offset allowed), normalised to UTC `…Z`. */
const IsoDatetime = z.iso
  .datetime({ offset: true })
  .transform((v) => new Date(v).toISOString())
  .openapi({ type: "string", format: "date-time", example: "2026-11-21T09:30:00.000Z" });
const RefId = Uuid;

export const CreateCostEventSchema = z
  .object({
    agentId: RefId.openapi({ description: "Agent that incurred the cost; must belong to the company. Agent callers: only themselves." }),
    provider: Label(100).openapi({ example: "anthropic" }),
    model: Label(200).openapi({ example: "claude-sonnet" }),
    costCents: Cents,
    occurredAt: IsoDatetime,
    issueId: RefId.nullable().optional().openapi({ description: "Issue of this company; the event inherits its project when projectId is omitted" }),
    projectId: RefId.nullable().optional(),
    goalId: RefId.nullable().optional(),
    heartbeatRunId: RefId.nullable().optional(),
    billingCode: z.string().max(200).nullable().optional(),
    biller: Label(100).nullable().optional().openapi({ description: "Who bills the cost; defaults to provider" }),
    billingType: z.enum(billingTypes).optional().openapi({ description: "Default `unknown`" }),
    inputTokens: Tokens.optional(),
    cachedInputTokens: Tokens.optional(),
    outputTokens: Tokens.optional(),
  })
  .openapi("CreateCostEvent");

export const CostEventSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    agentId: z.string(),
    issueId: z.string().nullable(),
    projectId: z.string().nullable(),
    goalId: z.string().nullable(),
    heartbeatRunId: z.string().nullable(),
    billingCode: z.string().nullable(),
    provider: z.string(),
    biller: z.string(),
    billingType: z.enum(billingTypes),
    model: z.string(),
    inputTokens: z.number().int(),
    cachedInputTokens: z.number().int(),
    outputTokens: z.number().int(),
    costCents: z.number().int(),
    occurredAt: Timestamp,
    createdAt: Timestamp,
  })
  .openapi("CostEvent");

const rangeOrdered = (v: { from?: string; to?: string }) => !v.from || !v.to || v.from <= v.to;

export const CostRangeQuery = z
  .object({
    from: IsoDatetime.optional().openapi({ description: "Inclusive lower bound on occurredAt (ISO datetime)" }),
    to: IsoDatetime.optional().openapi({ description: "Inclusive upper bound on occurredAt (ISO datetime)" }),
  })
  .refine(rangeOrdered, { message: "from must not be after to", path: ["from"] });

export const CostSummarySchema = z
  .object({
    spendCents: z.number().int(),
    budgetCents: z.number().int().openapi({ description: "The company's monthly budget" }),
    utilizationPercent: z.number().openapi({ description: "spend / budget × 100, two decimals; 0 when the budget is 0" }),
    from: z.string().nullable(),
    to: z.string().nullable(),
  })
  .openapi("CostSummary");

const Totals = {
  costCents: z.number().int(),
  inputTokens: z.number().int(),
  cachedInputTokens: z.number().int(),
  outputTokens: z.number().int(),
  eventCount: z.number().int(),
};

export const CostsByAgentSchema = z
  .array(z.object({ agentId: z.string(), agentName: z.string().nullable(), agentStatus: z.string().nullable(), ...Totals }))
  .openapi("CostsByAgent");
export const CostsByAgentModelSchema = z
  .array(z.object({ agentId: z.string(), agentName: z.string().nullable(), provider: z.string(), model: z.string(), ...Totals }))
  .openapi("CostsByAgentModel");
export const CostsByProviderSchema = z.array(z.object({ provider: z.string(), ...Totals })).openapi("CostsByProvider");
export const CostsByBillerSchema = z.array(z.object({ biller: z.string(), ...Totals })).openapi("CostsByBiller");
export const CostsByProjectSchema = z.array(z.object({ projectId: z.string(), projectName: z.string().nullable(), ...Totals })).openapi("CostsByProject");

const RollingWindow = z.object({
  window: z.enum(["5h", "24h", "7d"]),
  hours: z.number().int(),
  since: Timestamp,
  spendCents: z.number().int(),
  eventCount: z.number().int(),
  totalTokens: z.number().int(),
});

export const WindowSpendSchema = z.object({ asOf: Timestamp, windows: z.array(RollingWindow) }).openapi("WindowSpend");

export const QuotaWindowsSchema = z
  .object({
    asOf: Timestamp,
    monthStart: Timestamp,
    providers: z.array(
      z.object({
        provider: z.string(),
        biller: z.string(),
        windows: z.array(RollingWindow),
        monthSpendCents: z.number().int(),
        monthEventCount: z.number().int(),
        billingTypes: z.array(z.object({ billingType: z.enum(billingTypes), costCents: z.number().int(), eventCount: z.number().int() })),
      }),
    ),
  })
  .openapi("QuotaWindows");

export const CreateFinanceEventSchema = z
  .object({
    kind: z.enum(FINANCE_EVENT_KINDS),
    direction: z.enum(FINANCE_DIRECTIONS).openapi({
      description: "From the company's side: `debit` = money charged to the company, `credit` = money returned or credited to it",
    }),
    amountCents: z.number().int().min(1).max(1_000_000_000_00).openapi({ description: "Positive integer in the currency's minor unit" }),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, "must be a 3-letter ISO 4217 code")
      .transform((c) => c.toUpperCase())
      .optional()
      .openapi({ type: "string", description: "ISO 4217 code, default USD", example: "USD" }),
    estimated: z.boolean().optional().openapi({ description: "The amount is an estimate (default false)" }),
    occurredAt: IsoDatetime.optional().openapi({ description: "Default: now" }),
    biller: Label(100).nullable().optional(),
    provider: Label(100).nullable().optional(),
    costEventId: RefId.nullable().optional().openapi({ description: "A cost event of this company the money relates to" }),
    description: z.string().max(2000).nullable().optional(),
    metadata: JsonObject.nullable().optional(),
  })
  .openapi("CreateFinanceEvent");

export const FinanceEventSchema = z
  .object({
    id: z.string(),
    companyId: z.string(),
    kind: z.enum(FINANCE_EVENT_KINDS),
    direction: z.enum(FINANCE_DIRECTIONS),
    amountCents: z.number().int(),
    currency: z.string(),
    estimated: z.boolean(),
    biller: z.string().nullable(),
    provider: z.string().nullable(),
    costEventId: z.string().nullable(),
    description: z.string().nullable(),
    metadata: JsonObject.nullable(),
    occurredAt: Timestamp,
    createdByUserId: z.string().nullable(),
    createdAt: Timestamp,
  })
  .openapi("FinanceEvent");

export const FinanceListQuery = z
  .object({
    from: IsoDatetime.optional(),
    to: IsoDatetime.optional(),
    limit: z.coerce.number().int().min(1).max(500).optional().openapi({ type: "integer", description: "1 to 500, default 100" }),
  })
  .refine(rangeOrdered, { message: "from must not be after to", path: ["from"] });

const FinanceTotals = {
  debitCents: z.number().int(),
  creditCents: z.number().int(),
  netCents: z.number().int().openapi({ description: "debits − credits" }),
  estimatedDebitCents: z.number().int(),
  eventCount: z.number().int(),
};

export const FinanceSummarySchema = z
  .object({
    ...FinanceTotals,
    currencies: z.array(z.string()),
    byCurrency: z.array(z.object({ currency: z.string(), ...FinanceTotals })),
  })
  .openapi("FinanceSummary");
export const FinanceByBillerSchema = z.array(z.object({ biller: z.string().nullable(), currency: z.string(), ...FinanceTotals })).openapi("FinanceByBiller");
export const FinanceByKindSchema = z.array(z.object({ kind: z.enum(FINANCE_EVENT_KINDS), currency: z.string(), ...FinanceTotals })).openapi("FinanceByKind");

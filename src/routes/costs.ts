// Costs and finance: cost-event ingestion, spend breakdowns, rolling windows, quota
// diagnostics, and the finance-event ledger.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { addCompanyAccessCheck, requireCompanyAccess } from "../http/access";
import { ReadBatch } from "../db/read-batch";
import { forbidden } from "../domain/errors";
import { runCompanyCommand } from "../company/client";
import { addCostEventRefReads } from "../domain/costs/refs";
import { utcMonthBounds, utilizationPercent } from "../domain/budgets/windows";
import {
  costSpendCents,
  costsByAgent,
  costsByAgentModel,
  costsByBiller,
  costsByProject,
  costsByProvider,
  financeByBiller,
  financeByKind,
  financeSummary,
  listFinanceEvents,
  quotaWindows,
  windowSpend,
  listCostEvents,
} from "../domain/costs/queries";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import {
  CostEventSchema,
  CostRangeQuery,
  CostSummarySchema,
  CostsByAgentModelSchema,
  CostsByAgentSchema,
  CostsByBillerSchema,
  CostsByProjectSchema,
  CostsByProviderSchema,
  CreateCostEventSchema,
  CreateFinanceEventSchema,
  FinanceByBillerSchema,
  FinanceByKindSchema,
  FinanceEventSchema,
  FinanceListQuery,
  FinanceSummarySchema,
  QuotaWindowsSchema,
  WindowSpendSchema,
} from "../schemas/costs";
import { recordFinanceEvent, reportCostEvent } from "../domain/costs/commands";

const tags = ["Costs"];
const BOARD_WRITERS = ["owner", "admin"] as const;

export const costsRouter = createRouter();

costsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/cost-events",
    tags,
    summary: "The company's cost events, newest first",
    description: "Filters agentId, issueId, heartbeatRunId (the run whose usage it records); `limit` default 100, at most 500.",
    request: {
      params: CompanyIdParam,
      query: z.object({
        agentId: z.string().optional(),
        issueId: z.string().optional(),
        heartbeatRunId: z.string().optional(),
        limit: z.coerce.number().int().min(1).max(500).optional(),
      }),
    },
    responses: { 200: jsonContent(z.array(CostEventSchema), "Cost events"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await listCostEvents(dbOf(c), companyId, c.req.valid("query")), 200);
  },
);

costsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/cost-events",
    tags,
    summary: "Report a cost event",
    description:
      "Board callers may report for any agent of the company; agent callers only for themselves (403). The agent (and any issueId, projectId, goalId) must belong to the company (422). " +
      "On accept the event is stored, the agent's and company's current-UTC-month spend is updated, every active budget policy whose scope matches (company, the agent, the event's project) is evaluated " +
      "(soft incident at the warn threshold, hard incident at 100 % which pauses the scope), and `cost.reported` is logged — all in one serialised step.",
    request: { params: CompanyIdParam, body: jsonBody(CreateCostEventSchema) },
    responses: { 201: jsonContent(CostEventSchema, "The stored cost event"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const body = c.req.valid("json");
    const batch = new ReadBatch(dbOf(c));
    const access = addCompanyAccessCheck(c, batch, companyId);
    const refs = addCostEventRefReads(batch, companyId, body);
    await batch.run();
    access();
    const actor = c.get("actor");
    if (actor.type === "agent" && actor.agentId !== body.agentId) throw forbidden("Agents may only report their own costs");
    const input = await refs(c.env);
    const event = await runCompanyCommand(c.env, companyId, reportCostEvent, actor, input);
    return c.json(event, 201);
  },
);

costsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/costs/summary",
    tags,
    summary: "Spend in a range (all time without from/to) against the company's monthly budget",
    request: { params: CompanyIdParam, query: CostRangeQuery },
    responses: { 200: jsonContent(CostSummarySchema, "Spend summary"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const range = c.req.valid("query");
    const company = await requireCompanyAccess(c, companyId);
    const spendCents = await costSpendCents(dbOf(c), companyId, range);
    return c.json(
      {
        spendCents,
        budgetCents: company.budgetMonthlyCents,
        utilizationPercent: utilizationPercent(spendCents, company.budgetMonthlyCents),
        from: range.from ?? null,
        to: range.to ?? null,
      },
      200,
    );
  },
);

const breakdowns = [
  { path: "by-agent", summary: "Spend, tokens and event count per agent", schema: CostsByAgentSchema, query: costsByAgent },
  {
    path: "by-agent-model",
    summary: "Spend, tokens and event count per agent, provider and model",
    schema: CostsByAgentModelSchema,
    query: costsByAgentModel,
  },
  { path: "by-provider", summary: "Spend, tokens and event count per provider", schema: CostsByProviderSchema, query: costsByProvider },
  { path: "by-biller", summary: "Spend, tokens and event count per biller", schema: CostsByBillerSchema, query: costsByBiller },
  {
    path: "by-project",
    summary: "Spend, tokens and event count per project (events without a project are not listed)",
    schema: CostsByProjectSchema,
    query: costsByProject,
  },
] as const;

for (const b of breakdowns) {
  costsRouter.openapi(
    createRoute({
      method: "get",
      path: `/api/companies/{companyId}/costs/${b.path}`,
      tags,
      summary: b.summary,
      description: "Optional `from`/`to` (inclusive ISO datetimes) bound occurredAt; all time without them. Highest spend first.",
      request: { params: CompanyIdParam, query: CostRangeQuery },
      responses: { 200: jsonContent(b.schema as z.ZodType, "Breakdown rows"), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const { companyId } = c.req.valid("param");
      await requireCompanyAccess(c, companyId);
      const rows = await b.query(dbOf(c), companyId, c.req.valid("query"));
      return c.json(rows, 200);
    },
  );
}

costsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/costs/window-spend",
    tags,
    summary: "Rolling company spend over the last 5 hours, 24 hours and 7 days",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(WindowSpendSchema, "Rolling windows"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await windowSpend(dbOf(c), companyId, new Date().toISOString()), 200);
  },
);

costsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/costs/quota-windows",
    tags,
    summary: "Board diagnostic: per provider and biller, rolling 5h/24h/7d spend, current UTC month spend and the billing-type mix",
    description: "The billing-type mix (metered, subscription included/overage, credits, fixed, unknown) covers the current UTC month.",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(QuotaWindowsSchema, "Quota windows"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    const now = new Date().toISOString();
    return c.json(await quotaWindows(dbOf(c), companyId, now, utcMonthBounds(now).start), 200);
  },
);

costsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/finance-events",
    tags,
    summary: "Record a finance event (board owner/admin)",
    description:
      "Body: kind (`inference_charge`, `platform_fee`, `credit_purchase`, `credit_refund`, `manual_adjustment`), direction (`debit` = charged to the company, `credit` = returned or credited to it), " +
      "amountCents (integer > 0), currency (ISO 4217, default USD), estimated (default false), occurredAt (default now), optional biller, provider, costEventId (a cost event of this company, else 422), description, metadata (object).",
    request: { params: CompanyIdParam, body: jsonBody(CreateFinanceEventSchema) },
    responses: { 201: jsonContent(FinanceEventSchema, "The recorded finance event"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const body = c.req.valid("json");
    await requireCompanyAccess(c, companyId, { board: true, roles: [...BOARD_WRITERS] });
    const event = await runCompanyCommand(c.env, companyId, recordFinanceEvent, c.get("actor"), {
      ...body,
      currency: body.currency ?? "USD",
      estimated: body.estimated ?? false,
      occurredAt: body.occurredAt ?? null,
    });
    return c.json(event, 201);
  },
);

costsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/costs/finance-events",
    tags,
    summary: "Finance events, newest first (limit 1 to 500, default 100)",
    request: { params: CompanyIdParam, query: FinanceListQuery },
    responses: { 200: jsonContent(z.array(FinanceEventSchema), "Finance events"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const { limit, ...range } = c.req.valid("query");
    await requireCompanyAccess(c, companyId);
    return c.json(await listFinanceEvents(dbOf(c), companyId, range, limit ?? 100), 200);
  },
);

costsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/costs/finance-summary",
    tags,
    summary: "Debits, credits and net (debits − credits), in total and per currency",
    description: "Totals add amounts as recorded, without currency conversion; use byCurrency when several currencies are present.",
    request: { params: CompanyIdParam, query: CostRangeQuery },
    responses: { 200: jsonContent(FinanceSummarySchema, "Finance summary"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await financeSummary(dbOf(c), companyId, c.req.valid("query")), 200);
  },
);

costsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/costs/finance-by-biller",
    tags,
    summary: "Debits, credits and net per biller and currency",
    request: { params: CompanyIdParam, query: CostRangeQuery },
    responses: { 200: jsonContent(FinanceByBillerSchema, "Per biller"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await financeByBiller(dbOf(c), companyId, c.req.valid("query")), 200);
  },
);

costsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/costs/finance-by-kind",
    tags,
    summary: "Debits, credits and net per kind and currency",
    request: { params: CompanyIdParam, query: CostRangeQuery },
    responses: { 200: jsonContent(FinanceByKindSchema, "Per kind"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await financeByKind(dbOf(c), companyId, c.req.valid("query")), 200);
  },
);

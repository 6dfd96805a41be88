// Budgets: the company's monthly budget, policy upsert, the overview, incident resolution.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireCompanyAccess } from "../http/access";
import { runCompanyCommand } from "../company/client";
import { budgetOverview, listBudgetIncidents } from "../domain/budgets/overview";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../schemas/common";
import { CompanySchema } from "../schemas/companies";
import {
  BudgetIncidentListQuery,
  BudgetIncidentSchema,
  BudgetOverviewSchema,
  CompanyBudgetSchema,
  IncidentParams,
  ResolveIncidentSchema,
  incidentResolution,
  UpsertBudgetPolicySchema,
  UpsertedBudgetPolicySchema,
} from "../schemas/budgets";
import { resolveBudgetIncident, setCompanyBudget, upsertBudgetPolicy } from "../domain/budgets/commands";

const tags = ["Budgets"];
/** Budget changes are board decisions: owners and admins (and full-trust callers). */
const BUDGET_MANAGERS = ["owner", "admin"] as const;

export const budgetsRouter = createRouter();

budgetsRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/companies/{companyId}/budgets",
    tags,
    summary: "Set the company's monthly budget (board owner/admin); syncs the company's calendar-month budget policy",
    description: "0 removes the budget (the policy is deactivated). A positive amount must be above this UTC month's observed spend (422).",
    request: { params: CompanyIdParam, body: jsonBody(CompanyBudgetSchema) },
    responses: { 200: jsonContent(CompanySchema, "The company"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true, roles: [...BUDGET_MANAGERS] });
    return c.json(await runCompanyCommand(c.env, companyId, setCompanyBudget, c.get("actor"), c.req.valid("json")), 200);
  },
);

budgetsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/budgets/overview",
    tags,
    summary: "Budget policies with observed spend and status, open incidents, budget-paused agent and project counts, pending budget approvals",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(BudgetOverviewSchema, "Budget overview"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await budgetOverview(dbOf(c), companyId, new Date().toISOString()), 200);
  },
);

budgetsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/budget-incidents",
    operationId: "listBudgetIncidents",
    tags,
    summary: "Budget incidents, newest first: open, resolved (with how), or both (board members)",
    request: { params: CompanyIdParam, query: BudgetIncidentListQuery },
    responses: { 200: jsonContent(z.array(BudgetIncidentSchema), "Incidents"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true });
    return c.json(await listBudgetIncidents(dbOf(c), companyId, c.req.valid("query")), 200);
  },
);

budgetsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/budgets/policies",
    tags,
    summary: "Create or update a budget policy (board owner/admin)",
    description:
      "Upsert on (scopeType, scopeId, metric, windowKind). Omitted fields keep their stored value on update and take the defaults on create " +
      "(metric `billed_cents`, windowKind `calendar_month_utc` for company/agent and `lifetime` for project, warnPercent 80, hardStopEnabled, notifyEnabled and isActive true). " +
      "The scope must belong to the company (422). A new or changed positive amount must be above the window's observed spend (422). " +
      "Monthly company and agent policies keep budgetMonthlyCents in step. Thresholds already reached open their incidents at once.",
    request: { params: CompanyIdParam, body: jsonBody(UpsertBudgetPolicySchema) },
    responses: {
      200: jsonContent(UpsertedBudgetPolicySchema, "The updated policy"),
      201: jsonContent(UpsertedBudgetPolicySchema, "The created policy"),
      ...errors(400, 401, 403, 404, 422),
    },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true, roles: [...BUDGET_MANAGERS] });
    const policy = await runCompanyCommand(c.env, companyId, upsertBudgetPolicy, c.get("actor"), c.req.valid("json"));
    return c.json(policy, policy.created ? 201 : 200);
  },
);

budgetsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/budget-incidents/{incidentId}/resolve",
    tags,
    summary: "Resolve a budget incident (board owner/admin)",
    description:
      "`keep_paused` closes the incident and leaves the scope paused (its override approval is rejected). `raise_budget_and_resume` needs amountCents above the current window's observed spend (422), " +
      "updates the policy (and the company's or agent's budgetMonthlyCents for monthly policies), resumes what the budget paused (agent → idle, company → active, project unpaused), " +
      "closes the policy's other open incidents and approves the override approval. An incident resolves once (409 afterwards).",
    request: { params: IncidentParams, body: jsonBody(ResolveIncidentSchema) },
    responses: { 200: jsonContent(BudgetIncidentSchema, "The resolved incident"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const { companyId, incidentId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId, { board: true, roles: [...BUDGET_MANAGERS] });
    const incident = await runCompanyCommand(c.env, companyId, resolveBudgetIncident, c.get("actor"), {
      incidentId,
      ...incidentResolution(c.req.valid("json")),
    });
    return c.json(incident, 200);
  },
);

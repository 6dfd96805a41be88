// Dashboard snapshot schema.
import { z } from "@hono/zod-openapi";

const Count = z.number().int();

export const DashboardSchema = z
  .object({
    companyId: z.string(),
    agents: z.object({
      active: Count.openapi({ description: "Agents in `active` or `idle`" }),
      running: Count,
      paused: Count,
      error: Count,
    }),
    tasks: z.object({
      open: Count.openapi({ description: "Every issue not `done` or `cancelled`" }),
      inProgress: Count,
      blocked: Count,
      done: Count,
    }),
    costs: z.object({
      monthSpendCents: Count.openapi({ description: "Sum of cost events in the current UTC calendar month" }),
      monthBudgetCents: Count,
      monthUtilizationPercent: z.number().openapi({ description: "spend / budget × 100, two decimals; 0 without a budget" }),
    }),
    pendingApprovals: Count.openapi({ description: "Approvals in `pending`" }),
    budgets: z.object({
      activeIncidents: Count.openapi({ description: "Open budget incidents" }),
      pendingApprovals: Count.openapi({ description: "Pending `budget_override_required` approvals" }),
      pausedAgents: Count.openapi({ description: "Agents paused by a budget hard stop" }),
      pausedProjects: Count.openapi({ description: "Projects paused by a budget hard stop" }),
    }),
  })
  .openapi("Dashboard");

// Reference checks for a cost event, done before the company's serialised section.
import { and, eq, sql } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { unprocessable } from "../errors";
import { onThisOrAnyShard } from "../../db/shards";
import type { CostEventInput } from "./commands";

/**
 * Checks, before the serialised section, that the agent and any issue, project, goal or run belong to
 * the company (422 otherwise), and attributes an event for an issue to the issue's project unless
 * a project is given. Companies never change owners of these rows, so this needs no serialisation.
 */
export async function resolveCostEventRefs(env: Env, db: Db, companyId: string, input: CostEventInput): Promise<CostEventInput> {
  const none = db.select({ id: schema.companies.id, projectId: sql<string | null>`NULL` }).from(schema.companies).where(eq(schema.companies.id, "-"));
  const [agents, issues, projects, goals] = (await db.batch([
    db
      .select({ id: schema.agents.id, projectId: sql<string | null>`NULL` })
      .from(schema.agents)
      .where(and(eq(schema.agents.companyId, companyId), eq(schema.agents.id, input.agentId))),
    input.issueId
      ? db
          .select({ id: schema.issues.id, projectId: schema.issues.projectId })
          .from(schema.issues)
          .where(and(eq(schema.issues.companyId, companyId), eq(schema.issues.id, input.issueId)))
      : none,
    input.projectId
      ? db
          .select({ id: schema.projects.id, projectId: schema.projects.id })
          .from(schema.projects)
          .where(and(eq(schema.projects.companyId, companyId), eq(schema.projects.id, input.projectId)))
      : none,
    input.goalId
      ? db
          .select({ id: schema.goals.id, projectId: sql<string | null>`NULL` })
          .from(schema.goals)
          .where(and(eq(schema.goals.companyId, companyId), eq(schema.goals.id, input.goalId)))
      : none,
  ])) as { id: string; projectId: string | null }[][];
  if (!agents.length) throw unprocessable("agentId must reference an agent of this company", { agentId: input.agentId });
  if (input.issueId && !issues.length) throw unprocessable("issueId must reference an issue of this company", { issueId: input.issueId });
  if (input.projectId && !projects.length) {
    throw unprocessable("projectId must reference a project of this company", { projectId: input.projectId });
  }
  if (input.goalId && !goals.length) throw unprocessable("goalId must reference a goal of this company", { goalId: input.goalId });
  // A run the service has not seen yet (an external run) is accepted; a known run must be this agent's, in this company.
  const runId = input.heartbeatRunId;
  const run = runId ? await onThisOrAnyShard(env, () => db.query.heartbeatRuns.findFirst({ where: eq(schema.heartbeatRuns.id, runId) })) : undefined;
  if (run && (run.companyId !== companyId || run.agentId !== input.agentId)) {
    throw unprocessable("heartbeatRunId must reference a run of this agent in this company", { heartbeatRunId: input.heartbeatRunId });
  }
  return { ...input, projectId: input.projectId ?? issues[0]?.projectId ?? null };
}

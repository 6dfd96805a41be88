// Reference checks for a cost event, done before the company's serialised section.
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import type { ReadBatch } from "../../db/read-batch";
import { template } from "../../db/templates";
import { unprocessable } from "../errors";
import { onThisOrAnyShard } from "../../db/shards";
import type { CostEventInput } from "./commands";

// Each reference read built once per isolate (src/db/templates.ts): cost events are the hottest write.
const agentOf = template(["companyId", "id"], (db, s) =>
  db
    .select({ id: schema.agents.id })
    .from(schema.agents)
    .where(and(eq(schema.agents.companyId, s.companyId), eq(schema.agents.id, s.id))),
);
const issueOf = template(["companyId", "id"], (db, s) =>
  db
    .select({ projectId: schema.issues.projectId })
    .from(schema.issues)
    .where(and(eq(schema.issues.companyId, s.companyId), eq(schema.issues.id, s.id))),
);
const projectOf = template(["companyId", "id"], (db, s) =>
  db
    .select({ id: schema.projects.id })
    .from(schema.projects)
    .where(and(eq(schema.projects.companyId, s.companyId), eq(schema.projects.id, s.id))),
);
const goalOf = template(["companyId", "id"], (db, s) =>
  db
    .select({ id: schema.goals.id })
    .from(schema.goals)
    .where(and(eq(schema.goals.companyId, s.companyId), eq(schema.goals.id, s.id))),
);

/**
 * Adds to the request's read batch (beside its access check: one round trip) the reads that show
 * the agent and any issue, project or goal belong to the company. The returned check (after the
 * batch ran) answers 422 otherwise, looks up a given run (a run the service has not seen yet, an
 * external one, is accepted; a known run must be this agent's in this company), and attributes an
 * event for an issue to the issue's project unless a project is given. Companies never change
 * owners of these rows, so this needs no serialisation.
 */
export function addCostEventRefReads(batch: ReadBatch, companyId: string, input: CostEventInput) {
  const { db } = batch;
  const agent = batch.add(agentOf(db, { companyId, id: input.agentId }));
  const issue = input.issueId ? batch.add(issueOf(db, { companyId, id: input.issueId })) : null;
  const project = input.projectId ? batch.add(projectOf(db, { companyId, id: input.projectId })) : null;
  const goal = input.goalId ? batch.add(goalOf(db, { companyId, id: input.goalId })) : null;
  return async (env: Env): Promise<CostEventInput> => {
    if (!agent.value.length) throw unprocessable("agentId must reference an agent of this company", { agentId: input.agentId });
    if (issue && !issue.value.length) throw unprocessable("issueId must reference an issue of this company", { issueId: input.issueId });
    if (project && !project.value.length) throw unprocessable("projectId must reference a project of this company", { projectId: input.projectId });
    if (goal && !goal.value.length) throw unprocessable("goalId must reference a goal of this company", { goalId: input.goalId });
    const runId = input.heartbeatRunId;
    const run = runId ? await onThisOrAnyShard(env, () => db.query.heartbeatRuns.findFirst({ where: eq(schema.heartbeatRuns.id, runId) })) : undefined;
    if (run && (run.companyId !== companyId || run.agentId !== input.agentId)) {
      throw unprocessable("heartbeatRunId must reference a run of this agent in this company", { heartbeatRunId: input.heartbeatRunId });
    }
    return { ...input, projectId: input.projectId ?? issue?.value[0]?.projectId ?? null };
  };
}

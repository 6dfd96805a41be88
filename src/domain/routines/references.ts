// What a routine points at must be in its company: the assignee (also invokable), project, goal,
// parent issue, execution workspace. Checked from one read batch; a miss is a 422 naming the field.
import { eq } from "drizzle-orm";
import type { ReadBatch } from "../../db/read-batch";
import { schema } from "../../db/client";
import { unprocessable } from "../errors";
import { issueRefCondition } from "../issues/references";

export interface RoutineRefsInput {
  assigneeAgentId?: string | null;
  projectId?: string | null;
  goalId?: string | null;
  parentIssueId?: string | null;
  executionWorkspaceId?: string | null;
}

export const UNINVOKABLE_AGENT_STATUSES = ["terminated", "pending_approval"] as const;
export const isInvokableAgentStatus = (status: string) => !(UNINVOKABLE_AGENT_STATUSES as readonly string[]).includes(status);

export interface CheckedRoutineRefs {
  agent: { id: string; status: string; pauseReason: string | null } | null;
  project: { id: string; pausedAt: string | null } | null;
  /** The parent issue's id (the input may name it by identifier). */
  parentIssueId: string | null;
}

/** Adds the reads for `input`'s references; the returned check throws 422 on the first reference outside `companyId`. */
export function addRoutineReferenceChecks(batch: ReadBatch, input: RoutineRefsInput) {
  const { db } = batch;
  const agent = input.assigneeAgentId
    ? batch.add(
        db
          .select({ id: schema.agents.id, companyId: schema.agents.companyId, status: schema.agents.status, pauseReason: schema.agents.pauseReason })
          .from(schema.agents)
          .where(eq(schema.agents.id, input.assigneeAgentId)),
      )
    : null;
  const project = input.projectId
    ? batch.add(
        db
          .select({ id: schema.projects.id, companyId: schema.projects.companyId, pausedAt: schema.projects.pausedAt })
          .from(schema.projects)
          .where(eq(schema.projects.id, input.projectId)),
      )
    : null;
  const goal = input.goalId ? batch.add(db.select({ companyId: schema.goals.companyId }).from(schema.goals).where(eq(schema.goals.id, input.goalId))) : null;
  const parent = input.parentIssueId
    ? batch.add(db.select({ id: schema.issues.id, companyId: schema.issues.companyId }).from(schema.issues).where(issueRefCondition(input.parentIssueId)))
    : null;
  const workspace = input.executionWorkspaceId
    ? batch.add(
        db
          .select({ companyId: schema.executionWorkspaces.companyId })
          .from(schema.executionWorkspaces)
          .where(eq(schema.executionWorkspaces.id, input.executionWorkspaceId)),
      )
    : null;
  return (companyId: string): CheckedRoutineRefs => {
    const agentRow = agent?.value[0];
    if (agent && (!agentRow || agentRow.companyId !== companyId))
      throw unprocessable("assigneeAgentId must reference an agent of this company", { assigneeAgentId: input.assigneeAgentId });
    if (agentRow && !isInvokableAgentStatus(agentRow.status)) {
      throw unprocessable(`assigneeAgentId must reference an invokable agent (this one is ${agentRow.status})`, {
        assigneeAgentId: input.assigneeAgentId,
        status: agentRow.status,
      });
    }
    const projectRow = project?.value[0];
    if (project && (!projectRow || projectRow.companyId !== companyId))
      throw unprocessable("projectId must reference a project of this company", { projectId: input.projectId });
    if (goal && goal.value[0]?.companyId !== companyId) throw unprocessable("goalId must reference a goal of this company", { goalId: input.goalId });
    const parentRow = parent?.value[0];
    if (parent && (!parentRow || parentRow.companyId !== companyId))
      throw unprocessable("parentIssueId must reference an issue of this company", { parentIssueId: input.parentIssueId });
    if (workspace && workspace.value[0]?.companyId !== companyId) {
      throw unprocessable("executionWorkspaceId must reference an execution workspace of this company", { executionWorkspaceId: input.executionWorkspaceId });
    }
    return {
      agent: agentRow ? { id: agentRow.id, status: agentRow.status, pauseReason: agentRow.pauseReason } : null,
      project: projectRow ? { id: projectRow.id, pausedAt: projectRow.pausedAt } : null,
      parentIssueId: parentRow?.id ?? null,
    };
  };
}

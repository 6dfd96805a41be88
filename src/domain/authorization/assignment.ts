// Task-assignment authorization: may this actor assign (or unassign) work to this agent or user?
// `decideAssignmentFromFacts` is the pure rule over loaded facts; `decideTaskAssignment` loads them.
//
// Order of the rule (first match wins):
//  1. no caller → deny_unauthenticated; an action other than tasks:assign → deny_unsupported_action
//  2. company boundary: an agent of another company, or a target agent/user/project outside the
//     company (or a target agent that is terminated / pending approval) → deny_company_boundary
//  3. policy blocks that cannot be satisfied here (unknown keys or modes, requiresApproval) →
//     deny_policy_restricted for every caller, the local board included ("blocked entirely")
//  4. full trust: local implicit board → allow_local_board, instance admin → allow_instance_admin
//  5. board users: no active membership → deny_missing_membership; explicit grant → allow_explicit_grant;
//     private/protected target → deny_scope (a scoped grant that does not cover it) or deny_policy_restricted;
//     a role whose default grants include tasks:assign (owner, admin, member) → allow_simple_company_member;
//     else deny_scope / deny_missing_grant
//  6. agents: not active, or an inactive membership row → deny_missing_membership; itself → allow_self;
//     explicit grant → allow_explicit_grant; private/protected target → deny_scope or deny_policy_restricted;
//     legacy creator (permissions.canCreateAgents, or role ceo) → allow_legacy_agent_creator;
//     target in its reporting subtree → allow_manager_chain; then see `companyAgentMayAssign`.
import { and, eq, sql, type SQL } from "drizzle-orm";
import { ReadBatch } from "../../db/read-batch";
import { schema, type Db } from "../../db/client";
import { forbidden, HttpError } from "../errors";
import { LOCAL_BOARD_USER_ID, type Actor } from "../actor";
import { defaultGrantsForRole, type MembershipRoleName } from "./permission-keys";
import { MEMBERSHIP_ROLES } from "../../db/schema/access";
import { combineEffects, evaluatePolicyContainer, type PolicyEffect } from "./policy";
import { scopeCovers, type RequestedScope } from "./scope";

export type DecisionReason =
  | "allow_local_board"
  | "allow_instance_admin"
  | "allow_explicit_grant"
  | "allow_legacy_agent_creator"
  | "allow_self"
  | "allow_company_agent"
  | "allow_simple_company_member"
  | "allow_manager_chain"
  | "deny_unauthenticated"
  | "deny_company_boundary"
  | "deny_missing_membership"
  | "deny_missing_grant"
  | "deny_policy_restricted"
  | "deny_scope"
  | "deny_unsupported_action";

export interface AuthorizationDecision {
  allowed: boolean;
  reason: DecisionReason;
}

export const ASSIGN_ACTION = "tasks:assign";
const INACTIVE_AGENT_STATUSES = new Set(["terminated", "pending_approval"]);

export interface AgentFacts {
  id: string;
  companyId: string;
  role: string;
  status: string;
  reportsTo: string | null;
  permissions: Record<string, unknown> | null;
}

export interface GrantFacts {
  permissionKey: string;
  scope: Record<string, unknown> | null;
}

export interface MembershipFacts {
  membershipRole: string;
  status: string;
}

export type AssignmentTarget =
  | { kind: "none" }
  | { kind: "agent"; agentId: string; agent: AgentFacts | null }
  | { kind: "user"; userId: string; activeMember: boolean };

export interface AssignmentFacts {
  actor: Actor;
  companyId: string;
  action: string;
  /** The acting agent's row (agent actors only). */
  actorAgent: AgentFacts | null;
  /** The actor's company_memberships row in this company, whatever its status. */
  actorMembership: MembershipFacts | null;
  /** The actor's principal_permission_grants in this company. */
  actorGrants: GrantFacts[];
  target: AssignmentTarget;
  /** agentId → reportsTo for the company's agents (manager chains). */
  hierarchy: Map<string, string | null>;
  projectId: string | null;
  /** The project's company and policy container, or null when no project or it does not exist. */
  project: { companyId: string; executionWorkspacePolicy: Record<string, unknown> | null } | null;
  issueExecutionPolicy: Record<string, unknown> | null;
}

/** Managers of `agentId` up the reportsTo chain, nearest first (cycle-safe). */
export function ancestorsOf(hierarchy: Map<string, string | null>, agentId: string): string[] {
  const chain: string[] = [];
  let cursor = hierarchy.get(agentId) ?? null;
  while (cursor && !chain.includes(cursor) && chain.length < 100) {
    chain.push(cursor);
    cursor = hierarchy.get(cursor) ?? null;
  }
  return chain;
}

/** Legacy agent-creator authority: `permissions.canCreateAgents`, or the CEO role. */
export function isLegacyAgentCreator(agent: Pick<AgentFacts, "role" | "permissions">): boolean {
  return agent.role === "ceo" || agent.permissions?.canCreateAgents === true;
}

const allow = (reason: DecisionReason): AuthorizationDecision => ({ allowed: true, reason });
const deny = (reason: DecisionReason): AuthorizationDecision => ({ allowed: false, reason });

type GrantOutcome = "covered" | "scope_miss" | "none";

/** Explicit tasks:assign (empty scope = company-wide) or tasks:assign_scope (needs a structured scope) grants. */
function explicitGrantOutcome(grants: GrantFacts[], requested: RequestedScope): GrantOutcome {
  let outcome: GrantOutcome = "none";
  for (const grant of grants) {
    if (grant.permissionKey !== "tasks:assign" && grant.permissionKey !== "tasks:assign_scope") continue;
    if (scopeCovers(grant.scope, requested, { requireStructured: grant.permissionKey === "tasks:assign_scope" })) return "covered";
    outcome = "scope_miss";
  }
  return outcome;
}

/**
 * An agent of the company, with no grant, creator authority or management line to the target:
 * it may still hand work back up its own chain of command (to one of its managers), to a human
 * member of the company, or clear the assignee (allow_company_agent). Assigning to any other
 * peer needs a grant (deny_missing_grant): otherwise `tasks:assign` grants and the legacy
 * creator authority would mean nothing, and `canAssignTasks: false` could not be expressed.
 */
function companyAgentMayAssign(facts: AssignmentFacts, actorAncestors: string[]): boolean {
  const { target } = facts;
  if (target.kind === "none" || target.kind === "user") return true;
  return actorAncestors.includes(target.agentId);
}

export function decideAssignmentFromFacts(facts: AssignmentFacts): AuthorizationDecision {
  const { actor, companyId, target } = facts;
  if (actor.type === "none") return deny("deny_unauthenticated");
  if (facts.action !== ASSIGN_ACTION) return deny("deny_unsupported_action");

  // 2. Company boundary.
  if (actor.type === "agent") {
    if (actor.companyId !== companyId) return deny("deny_company_boundary");
    if (!facts.actorAgent || facts.actorAgent.companyId !== companyId) return deny("deny_company_boundary");
  }
  if (target.kind === "agent") {
    const agent = target.agent;
    if (!agent || agent.companyId !== companyId || INACTIVE_AGENT_STATUSES.has(agent.status)) return deny("deny_company_boundary");
  }
  if (target.kind === "user" && !target.activeMember && target.userId !== LOCAL_BOARD_USER_ID) return deny("deny_company_boundary");
  if (facts.projectId && (!facts.project || facts.project.companyId !== companyId)) return deny("deny_company_boundary");

  // 3. Policy blocks from the target agent, the project and the issue.
  const effect: PolicyEffect = combineEffects([
    target.kind === "agent" ? evaluatePolicyContainer(target.agent?.permissions, "Target agent") : { kind: "none" },
    evaluatePolicyContainer(facts.project?.executionWorkspacePolicy, "Project"),
    evaluatePolicyContainer(facts.issueExecutionPolicy, "Issue"),
  ]);
  if (effect.kind === "unknown" || effect.kind === "requires_approval") return deny("deny_policy_restricted");
  const restricted = effect.kind === "restricted";

  // 4. Full trust.
  if (actor.type === "board" && actor.source === "local_implicit") return allow("allow_local_board");
  if (actor.type === "board" && actor.isInstanceAdmin) return allow("allow_instance_admin");

  const targetAgentId = target.kind === "agent" ? target.agentId : null;
  const requested: RequestedScope = {
    projectId: facts.projectId,
    targetAgentId,
    targetAncestors: targetAgentId ? ancestorsOf(facts.hierarchy, targetAgentId) : [],
  };
  const grants = explicitGrantOutcome(facts.actorGrants, requested);
  const restrictedDenial = () => deny(grants === "scope_miss" ? "deny_scope" : "deny_policy_restricted");

  // 5. Board users.
  if (actor.type === "board") {
    const membership = facts.actorMembership;
    if (membership?.status !== "active") return deny("deny_missing_membership");
    if (grants === "covered") return allow("allow_explicit_grant");
    if (restricted) return restrictedDenial();
    const role = membership.membershipRole as MembershipRoleName;
    if ((MEMBERSHIP_ROLES as readonly string[]).includes(role) && defaultGrantsForRole(role).includes("tasks:assign")) {
      return allow("allow_simple_company_member");
    }
    return deny(grants === "scope_miss" ? "deny_scope" : "deny_missing_grant");
  }

  // 6. Agents.
  const self = facts.actorAgent!;
  if (INACTIVE_AGENT_STATUSES.has(self.status)) return deny("deny_missing_membership");
  if (facts.actorMembership && facts.actorMembership.status !== "active") return deny("deny_missing_membership");
  if (targetAgentId === self.id) return allow("allow_self");
  if (grants === "covered") return allow("allow_explicit_grant");
  if (restricted) return restrictedDenial();
  if (isLegacyAgentCreator(self)) return allow("allow_legacy_agent_creator");
  if (targetAgentId && requested.targetAncestors.includes(self.id)) return allow("allow_manager_chain");
  if (companyAgentMayAssign(facts, ancestorsOf(facts.hierarchy, self.id))) return allow("allow_company_agent");
  return deny(grants === "scope_miss" ? "deny_scope" : "deny_missing_grant");
}

export interface TaskAssignmentInput {
  actor: Actor;
  /** The company, or SQL for it when it is read in the same batch (then pass it to the decision). */
  companyId: string | SQL;
  assigneeAgentId?: string | null;
  assigneeUserId?: string | null;
  /** The issue's project: an id, or SQL for it (e.g. the issue's current project, read in the same batch). */
  projectId?: string | SQL | null;
  issue?: { id: string; executionPolicy?: Record<string, unknown> | null } | null;
  action?: string;
}

/** Which of the loaded assignees a decision is about (a subset of the input's). */
export interface AssigneeChoice {
  assigneeAgentId: string | null;
  assigneeUserId: string | null;
}

/**
 * Adds the reads the rule needs to `batch` (a handful of indexed reads). The returned function
 * decides for the input's assignees, or for a subset of them (`choice`); an agent and a user
 * assignee at once must each be allowed, and the first refusal is the answer.
 */
export function addTaskAssignmentDecision(
  batch: ReadBatch,
  input: TaskAssignmentInput & { resolveCompanyId?: boolean },
): (choice?: AssigneeChoice, resolvedCompanyId?: string) => AuthorizationDecision {
  const { actor } = input;
  const companyId = input.companyId as string; // SQL works in the queries below as well
  if (actor.type === "none") return () => deny("deny_unauthenticated");
  const db = batch.db;
  const principal = actor.type === "agent" ? { type: "agent" as const, id: actor.agentId } : { type: "user" as const, id: actor.userId };
  const agentCols = {
    id: schema.agents.id,
    companyId: schema.agents.companyId,
    role: schema.agents.role,
    status: schema.agents.status,
    reportsTo: schema.agents.reportsTo,
    permissions: schema.agents.permissions,
  };
  const m = schema.companyMemberships;
  const g = schema.principalPermissionGrants;
  const actorAgent = actor.type === "agent" ? batch.add(db.select(agentCols).from(schema.agents).where(eq(schema.agents.id, actor.agentId))) : null;
  const targetAgent = input.assigneeAgentId ? batch.add(db.select(agentCols).from(schema.agents).where(eq(schema.agents.id, input.assigneeAgentId))) : null;
  const membership = batch.add(
    db
      .select({ membershipRole: m.membershipRole, status: m.status })
      .from(m)
      .where(and(eq(m.companyId, companyId), eq(m.principalType, principal.type), eq(m.principalId, principal.id))),
  );
  const grants = batch.add(
    db
      .select({ permissionKey: g.permissionKey, scope: g.scope })
      .from(g)
      .where(and(eq(g.companyId, companyId), eq(g.principalType, principal.type), eq(g.principalId, principal.id))),
  );
  const hierarchy = batch.add(
    db.select({ id: schema.agents.id, reportsTo: schema.agents.reportsTo }).from(schema.agents).where(eq(schema.agents.companyId, companyId)),
  );
  const project = input.projectId
    ? batch.add(
        db
          .select({ id: schema.projects.id, companyId: schema.projects.companyId, executionWorkspacePolicy: schema.projects.executionWorkspacePolicy })
          .from(schema.projects)
          .where(typeof input.projectId === "string" ? eq(schema.projects.id, input.projectId) : sql`${schema.projects.id} = ${input.projectId}`),
      )
    : null;
  const targetUser = input.assigneeUserId
    ? batch.add(
        db
          .select({ id: m.id })
          .from(m)
          .where(and(eq(m.companyId, companyId), eq(m.principalType, "user"), eq(m.principalId, input.assigneeUserId), eq(m.status, "active"))),
      )
    : null;
  const factsFor = (target: AssignmentTarget, resolvedCompanyId: string): AssignmentFacts => {
    const projectRow = project?.value[0] ?? null;
    return {
      actor,
      companyId: resolvedCompanyId,
      action: input.action ?? ASSIGN_ACTION,
      actorAgent: actorAgent?.value[0] ?? null,
      actorMembership: membership.value[0] ?? null,
      actorGrants: grants.value,
      target,
      hierarchy: new Map(hierarchy.value.map((r) => [r.id, r.reportsTo])),
      projectId: typeof input.projectId === "string" ? input.projectId : (projectRow?.id ?? null),
      project: projectRow ? { companyId: projectRow.companyId, executionWorkspacePolicy: projectRow.executionWorkspacePolicy } : null,
      issueExecutionPolicy: input.issue?.executionPolicy ?? null,
    };
  };
  return (choice = { assigneeAgentId: input.assigneeAgentId ?? null, assigneeUserId: input.assigneeUserId ?? null }, resolvedCompanyId = companyId) => {
    const agentTarget: AssignmentTarget | null = choice.assigneeAgentId
      ? { kind: "agent", agentId: choice.assigneeAgentId, agent: targetAgent?.value[0] ?? null }
      : null;
    const userTarget: AssignmentTarget | null = choice.assigneeUserId
      ? { kind: "user", userId: choice.assigneeUserId, activeMember: Boolean(targetUser?.value[0]) }
      : null;
    if (agentTarget && userTarget) {
      const forAgent = decideAssignmentFromFacts(factsFor(agentTarget, resolvedCompanyId));
      return forAgent.allowed ? decideAssignmentFromFacts(factsFor(userTarget, resolvedCompanyId)) : forAgent;
    }
    return decideAssignmentFromFacts(factsFor(agentTarget ?? userTarget ?? { kind: "none" }, resolvedCompanyId));
  };
}

/** Loads the facts (one round trip) and decides. */
export async function decideTaskAssignment(db: Db, input: TaskAssignmentInput): Promise<AuthorizationDecision> {
  const batch = new ReadBatch(db);
  const decide = addTaskAssignmentDecision(batch, input);
  await batch.run();
  return decide();
}

/** Throws the refusal (401 unauthenticated, else 403 with the decision reason). */
export function requireAssignmentAllowed(decision: AuthorizationDecision): AuthorizationDecision {
  if (decision.allowed) return decision;
  if (decision.reason === "deny_unauthenticated") {
    throw new HttpError(401, `Assignment not allowed: ${decision.reason}`, { reason: decision.reason });
  }
  throw forbidden(`Assignment not allowed: ${decision.reason}`, { reason: decision.reason });
}

export async function assertCanAssign(db: Db, input: TaskAssignmentInput): Promise<AuthorizationDecision> {
  return requireAssignmentAllowed(await decideTaskAssignment(db, input));
}

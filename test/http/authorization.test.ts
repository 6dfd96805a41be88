// Task-assignment authorization: the pure rule as a table (every reason reachable), the
// scope and policy helpers, and the D1 loader on a real company.
import { describe, expect, it } from "vitest";
import {
  assertCanAssign,
  decideAssignmentFromFacts,
  decideTaskAssignment,
  type AgentFacts,
  type AssignmentFacts,
  type DecisionReason,
} from "../../src/domain/authorization/assignment";
import { evaluatePolicyContainer } from "../../src/domain/authorization/policy";
import { scopeCovers } from "../../src/domain/authorization/scope";
import { createDb } from "../../src/db/client";
import type { Actor } from "../../src/domain/actor";
import { createCompany, insertAgent, insertGrant, insertUser, addMembership, testD1 } from "../helpers/fixtures";

const C = "company-1";
const OTHER = "company-2";

const agent = (id: string, fields: Partial<AgentFacts> = {}): AgentFacts => ({
  id,
  companyId: C,
  role: "engineer",
  status: "idle",
  reportsTo: null,
  permissions: {},
  ...fields,
});

// Org: ceo ← manager ← worker, manager ← worker2; peer reports to ceo.
const ceo = agent("ceo", { role: "ceo" });
const manager = agent("manager", { reportsTo: "ceo" });
const worker = agent("worker", { reportsTo: "manager" });
const worker2 = agent("worker2", { reportsTo: "manager" });
const peer = agent("peer", { reportsTo: "ceo" });
const intern = agent("intern", { reportsTo: "worker" });
const all = [ceo, manager, worker, worker2, peer, intern];
const hierarchy = new Map(all.map((a) => [a.id, a.reportsTo]));

const localBoard: Actor = { type: "board", source: "local_implicit", userId: "local-board", isInstanceAdmin: true, companyIds: [], keyId: null, runId: null };
const admin: Actor = { type: "board", source: "session", userId: "admin", isInstanceAdmin: true, companyIds: [], keyId: null, runId: null };
const user: Actor = { type: "board", source: "board_key", userId: "u1", isInstanceAdmin: false, companyIds: [C], keyId: "k", runId: null };
const asAgent = (a: AgentFacts, companyId = C): Actor => ({ type: "agent", source: "agent_key", agentId: a.id, companyId, keyId: "k", runId: null });

function facts(overrides: Partial<AssignmentFacts> & { targetAgent?: AgentFacts | null }): AssignmentFacts {
  const { targetAgent, ...rest } = overrides;
  const actor = rest.actor ?? localBoard;
  return {
    actor,
    companyId: C,
    action: "tasks:assign",
    actorAgent: actor.type === "agent" ? (all.find((a) => a.id === actor.agentId) ?? null) : null,
    actorMembership: actor.type === "board" ? { membershipRole: "member", status: "active" } : null,
    actorGrants: [],
    target:
      targetAgent === undefined
        ? { kind: "agent", agentId: peer.id, agent: peer }
        : targetAgent === null
          ? { kind: "agent", agentId: "missing", agent: null }
          : { kind: "agent", agentId: targetAgent.id, agent: targetAgent },
    hierarchy,
    projectId: null,
    project: null,
    issueExecutionPolicy: null,
    ...rest,
  };
}

const protectedPeer = agent("peer", { reportsTo: "ceo", permissions: { authorizationPolicy: { assignmentPolicy: { mode: "protected" } } } });
const privatePeer = agent("peer", { reportsTo: "ceo", permissions: { agentVisibility: { mode: "private" } } });
const approvalPeer = agent("peer", { reportsTo: "ceo", permissions: { protectedAgent: { requiresApproval: true } } });

const table: Array<[string, Partial<AssignmentFacts> & { targetAgent?: AgentFacts | null }, DecisionReason]> = [
  // Authentication and action.
  ["no caller", { actor: { type: "none", runId: null } }, "deny_unauthenticated"],
  ["unsupported action", { action: "tasks:delete_everything" }, "deny_unsupported_action"],
  // Full trust.
  ["local board", {}, "allow_local_board"],
  ["local board, protected target", { targetAgent: protectedPeer }, "allow_local_board"],
  ["instance admin", { actor: admin }, "allow_instance_admin"],
  ["instance admin, private target", { actor: admin, targetAgent: privatePeer }, "allow_instance_admin"],
  // Company boundary.
  ["agent of another company", { actor: asAgent(worker, OTHER) }, "deny_company_boundary"],
  ["target agent of another company", { targetAgent: agent("x", { companyId: OTHER }) }, "deny_company_boundary"],
  ["missing target agent", { targetAgent: null }, "deny_company_boundary"],
  ["terminated target", { targetAgent: agent("t", { status: "terminated" }) }, "deny_company_boundary"],
  ["target user not a member", { actor: user, target: { kind: "user", userId: "stranger", activeMember: false } }, "deny_company_boundary"],
  ["project of another company", { projectId: "p", project: { companyId: OTHER, executionWorkspacePolicy: null } }, "deny_company_boundary"],
  // Policies that block everyone.
  ["requiresApproval blocks even the local board", { targetAgent: approvalPeer }, "deny_policy_restricted"],
  [
    "assignmentPolicy.protectedAgentRequiresApproval",
    { actor: user, targetAgent: agent("peer", { permissions: { assignmentPolicy: { protectedAgentRequiresApproval: true } } }) },
    "deny_policy_restricted",
  ],
  ["unknown visibility mode", { targetAgent: agent("peer", { permissions: { agentVisibility: { mode: "secret" } } }) }, "deny_policy_restricted"],
  [
    "unknown authorizationPolicy key",
    { actor: admin, targetAgent: agent("peer", { permissions: { authorizationPolicy: { quantum: true } } }) },
    "deny_policy_restricted",
  ],
  ["unknown block key", { targetAgent: agent("peer", { permissions: { assignmentPolicy: { mode: "protected", vibe: 1 } } }) }, "deny_policy_restricted"],
  [
    "unknown project policy mode",
    { projectId: "p", project: { companyId: C, executionWorkspacePolicy: { assignmentPolicy: { mode: "weird" } } } },
    "deny_policy_restricted",
  ],
  [
    "issue requires approval",
    { actor: asAgent(ceo), issueExecutionPolicy: { authorizationPolicy: { protectedAgent: { requiresApproval: true } } } },
    "deny_policy_restricted",
  ],
  // Board users.
  ["board user without membership", { actor: user, actorMembership: null }, "deny_missing_membership"],
  ["board user with inactive membership", { actor: user, actorMembership: { membershipRole: "owner", status: "inactive" } }, "deny_missing_membership"],
  ["board member (simple default)", { actor: user }, "allow_simple_company_member"],
  ["board admin (simple default)", { actor: user, actorMembership: { membershipRole: "admin", status: "active" } }, "allow_simple_company_member"],
  ["board member assigning to a member user", { actor: user, target: { kind: "user", userId: "u2", activeMember: true } }, "allow_simple_company_member"],
  ["board viewer", { actor: user, actorMembership: { membershipRole: "viewer", status: "active" } }, "deny_missing_grant"],
  [
    "board viewer with a company-wide grant",
    { actor: user, actorMembership: { membershipRole: "viewer", status: "active" }, actorGrants: [{ permissionKey: "tasks:assign", scope: null }] },
    "allow_explicit_grant",
  ],
  [
    "board viewer with a scope grant that misses",
    {
      actor: user,
      actorMembership: { membershipRole: "viewer", status: "active" },
      actorGrants: [{ permissionKey: "tasks:assign_scope", scope: { agentIds: ["worker"] } }],
    },
    "deny_scope",
  ],
  ["board member, protected target, no grant", { actor: user, targetAgent: protectedPeer }, "deny_policy_restricted"],
  ["board member, private target, no grant", { actor: user, targetAgent: privatePeer }, "deny_policy_restricted"],
  [
    "board member, protected target, matching scope grant",
    { actor: user, targetAgent: protectedPeer, actorGrants: [{ permissionKey: "tasks:assign_scope", scope: { allow: ["agent:peer"] } }] },
    "allow_explicit_grant",
  ],
  [
    "board member, protected target, scope grant for another agent",
    { actor: user, targetAgent: protectedPeer, actorGrants: [{ permissionKey: "tasks:assign_scope", scope: { allow: ["agent:worker"] } }] },
    "deny_scope",
  ],
  [
    "protected project with a project-scoped grant",
    {
      actor: user,
      projectId: "p1",
      project: { companyId: C, executionWorkspacePolicy: { assignmentPolicy: { mode: "protected" } } },
      actorGrants: [{ permissionKey: "tasks:assign", scope: { projectIds: ["p1"] } }],
    },
    "allow_explicit_grant",
  ],
  // Agents.
  ["agent assigning to itself", { actor: asAgent(worker), targetAgent: worker }, "allow_self"],
  ["protected agent assigning to itself", { actor: asAgent(protectedPeer), actorAgent: protectedPeer, targetAgent: protectedPeer }, "allow_self"],
  ["pending agent", { actor: asAgent(worker), actorAgent: agent("worker", { status: "pending_approval" }) }, "deny_missing_membership"],
  ["agent with inactive membership", { actor: asAgent(worker), actorMembership: { membershipRole: "member", status: "inactive" } }, "deny_missing_membership"],
  ["CEO agent", { actor: asAgent(ceo), targetAgent: worker }, "allow_legacy_agent_creator"],
  [
    "canCreateAgents agent",
    { actor: asAgent(worker), actorAgent: agent("worker", { reportsTo: "manager", permissions: { canCreateAgents: true } }) },
    "allow_legacy_agent_creator",
  ],
  ["CEO agent, protected target", { actor: asAgent(ceo), targetAgent: protectedPeer }, "deny_policy_restricted"],
  ["manager to a report", { actor: asAgent(manager), targetAgent: worker }, "allow_manager_chain"],
  ["manager to a report's report (subtree)", { actor: asAgent(manager), targetAgent: intern }, "allow_manager_chain"],
  ["worker handing back to its manager", { actor: asAgent(worker), targetAgent: manager }, "allow_company_agent"],
  ["worker handing back to the CEO (up the chain)", { actor: asAgent(worker), targetAgent: ceo }, "allow_company_agent"],
  ["worker clearing the assignee", { actor: asAgent(worker), target: { kind: "none" } }, "allow_company_agent"],
  ["worker assigning to a human member", { actor: asAgent(worker), target: { kind: "user", userId: "u2", activeMember: true } }, "allow_company_agent"],
  ["worker assigning to a sibling", { actor: asAgent(worker), targetAgent: worker2 }, "deny_missing_grant"],
  ["worker assigning to a peer", { actor: asAgent(worker) }, "deny_missing_grant"],
  ["worker with tasks:assign", { actor: asAgent(worker), actorGrants: [{ permissionKey: "tasks:assign", scope: null }] }, "allow_explicit_grant"],
  [
    "worker with subtree scope covering",
    { actor: asAgent(worker), targetAgent: worker2, actorGrants: [{ permissionKey: "tasks:assign_scope", scope: { subtreeRootAgentId: "manager" } }] },
    "allow_explicit_grant",
  ],
  [
    "worker with subtree shorthand covering",
    { actor: asAgent(worker), actorGrants: [{ permissionKey: "tasks:assign_scope", scope: { allow: ["subtree:ceo"] } }] },
    "allow_explicit_grant",
  ],
  [
    "worker with subtree scope missing",
    { actor: asAgent(worker), actorGrants: [{ permissionKey: "tasks:assign_scope", scope: { managerAgentId: "manager" } }] },
    "deny_scope",
  ],
  ["worker with empty tasks:assign_scope", { actor: asAgent(worker), actorGrants: [{ permissionKey: "tasks:assign_scope", scope: {} }] }, "deny_scope"],
  [
    "worker, private target, grant",
    { actor: asAgent(worker), targetAgent: privatePeer, actorGrants: [{ permissionKey: "tasks:assign", scope: { agentId: "peer" } }] },
    "allow_explicit_grant",
  ],
  ["worker, private target, no grant", { actor: asAgent(worker), targetAgent: privatePeer }, "deny_policy_restricted"],
  [
    "manager, protected report, no grant",
    { actor: asAgent(manager), targetAgent: agent("worker", { reportsTo: "manager", permissions: { assignmentPolicy: { mode: "protected" } } }) },
    "deny_policy_restricted",
  ],
  [
    "discoverable/company_default policy is unrestricted",
    {
      actor: asAgent(worker),
      targetAgent: agent("manager", {
        reportsTo: "ceo",
        permissions: { agentVisibility: { mode: "discoverable" }, assignmentPolicy: { mode: "company_default" } },
      }),
    },
    "allow_company_agent",
  ],
];

describe("decideAssignmentFromFacts (table)", () => {
  it.each(table)("%s", (_name, overrides, reason) => {
    const decision = decideAssignmentFromFacts(facts(overrides));
    expect(decision.reason).toBe(reason);
    expect(decision.allowed).toBe(reason.startsWith("allow_"));
  });

  it("reaches every decision reason", () => {
    const reasons: DecisionReason[] = [
      "allow_local_board",
      "allow_instance_admin",
      "allow_explicit_grant",
      "allow_legacy_agent_creator",
      "allow_self",
      "allow_company_agent",
      "allow_simple_company_member",
      "allow_manager_chain",
      "deny_unauthenticated",
      "deny_company_boundary",
      "deny_missing_membership",
      "deny_missing_grant",
      "deny_policy_restricted",
      "deny_scope",
      "deny_unsupported_action",
    ];
    const reached = new Set(table.map((row) => row[2]));
    expect(reasons.filter((r) => !reached.has(r))).toEqual([]);
  });
});

describe("policy blocks and scopes", () => {
  it("classifies policy containers", () => {
    expect(evaluatePolicyContainer(null, "x").kind).toBe("none");
    expect(evaluatePolicyContainer({ canCreateAgents: true }, "x").kind).toBe("none");
    expect(evaluatePolicyContainer({ assignmentPolicy: { mode: "protected" } }, "x").kind).toBe("restricted");
    expect(evaluatePolicyContainer({ agentVisibility: { hiddenFromDefaultDirectory: true } }, "x").kind).toBe("restricted");
    expect(evaluatePolicyContainer({ protectedAgent: { requiresApproval: true } }, "x").kind).toBe("requires_approval");
    expect(evaluatePolicyContainer({ authorizationPolicy: { managedBy: "ext", assignmentPolicy: {} } }, "x").kind).toBe("none");
    expect(evaluatePolicyContainer({ authorizationPolicy: "yes" }, "x").kind).toBe("unknown");
    expect(evaluatePolicyContainer({ protectedAgent: true }, "x").kind).toBe("unknown");
  });

  it("matches grant scopes", () => {
    const req = { projectId: "p1", targetAgentId: "a1", targetAncestors: ["m1", "root"] };
    expect(scopeCovers(null, req)).toBe(true);
    expect(scopeCovers(null, req, { requireStructured: true })).toBe(false);
    expect(scopeCovers({ note: "x" }, req)).toBe(true);
    expect(scopeCovers({ projectId: "p1" }, req)).toBe(true);
    expect(scopeCovers({ projectIds: ["p2"] }, req)).toBe(false);
    expect(scopeCovers({ allow: ["project:p1", "agent:a1"] }, req)).toBe(true);
    expect(scopeCovers({ projectId: "p1", assigneeAgentIds: ["a2"] }, req)).toBe(false);
    expect(scopeCovers({ targetAgentIds: ["a1"] }, req)).toBe(true);
    expect(scopeCovers({ subtreeRootAgentId: "root" }, req)).toBe(true);
    expect(scopeCovers({ allow: ["subtree:a1"] }, req)).toBe(true);
    expect(scopeCovers({ managerAgentId: "other" }, req)).toBe(false);
    expect(scopeCovers({ managerAgentId: "m1" }, { ...req, targetAgentId: null, targetAncestors: [] })).toBe(false);
  });
});

describe("decideTaskAssignment (loaded from D1)", () => {
  it("loads memberships, grants, the org tree and project policies", async () => {
    const db = createDb(testD1);
    const company = await createCompany();
    const boss = await insertAgent(company.id, { name: "Boss" });
    const report = await insertAgent(company.id, { name: "Report", reportsTo: boss.id });
    const sibling = await insertAgent(company.id, { name: "Sibling", reportsTo: boss.id });
    const bossActor: Actor = { type: "agent", source: "agent_key", agentId: boss.id, companyId: company.id, keyId: null, runId: null };
    const reportActor: Actor = { ...bossActor, agentId: report.id };

    expect(await decideTaskAssignment(db, { actor: bossActor, companyId: company.id, assigneeAgentId: report.id })).toEqual({
      allowed: true,
      reason: "allow_manager_chain",
    });
    expect((await decideTaskAssignment(db, { actor: reportActor, companyId: company.id, assigneeAgentId: sibling.id })).reason).toBe("deny_missing_grant");
    expect((await decideTaskAssignment(db, { actor: reportActor, companyId: company.id, assigneeAgentId: boss.id })).reason).toBe("allow_company_agent");

    await insertGrant(company.id, "agent", report.id, "tasks:assign_scope", { agentIds: [sibling.id] });
    expect((await decideTaskAssignment(db, { actor: reportActor, companyId: company.id, assigneeAgentId: sibling.id })).reason).toBe("allow_explicit_grant");

    const member = await insertUser();
    await addMembership(company.id, member.id, "viewer");
    const viewer: Actor = { type: "board", source: "board_key", userId: member.id, isInstanceAdmin: false, companyIds: [company.id], keyId: null, runId: null };
    expect((await decideTaskAssignment(db, { actor: viewer, companyId: company.id, assigneeAgentId: sibling.id })).reason).toBe("deny_missing_grant");
    expect((await decideTaskAssignment(db, { actor: viewer, companyId: company.id, assigneeUserId: member.id })).reason).toBe("deny_missing_grant");
    expect((await decideTaskAssignment(db, { actor: viewer, companyId: company.id, assigneeUserId: crypto.randomUUID() })).reason).toBe(
      "deny_company_boundary",
    );
    expect(
      (
        await decideTaskAssignment(db, {
          actor: bossActor,
          companyId: company.id,
          issue: { id: "i", executionPolicy: { protectedAgent: { requiresApproval: true } } },
        })
      ).reason,
    ).toBe("deny_policy_restricted");
    expect((await decideTaskAssignment(db, { actor: bossActor, companyId: company.id, projectId: crypto.randomUUID() })).reason).toBe("deny_company_boundary");
  });

  it("assertCanAssign throws 403 with the reason, 401 when unauthenticated", async () => {
    const db = createDb(testD1);
    const company = await createCompany();
    const a = await insertAgent(company.id);
    const b = await insertAgent(company.id);
    const actor: Actor = { type: "agent", source: "agent_key", agentId: a.id, companyId: company.id, keyId: null, runId: null };
    await expect(assertCanAssign(db, { actor, companyId: company.id, assigneeAgentId: b.id })).rejects.toMatchObject({
      status: 403,
      message: "Assignment not allowed: deny_missing_grant",
      details: { reason: "deny_missing_grant" },
    });
    await expect(assertCanAssign(db, { actor: { type: "none", runId: null }, companyId: company.id })).rejects.toMatchObject({ status: 401 });
    expect(await assertCanAssign(db, { actor, companyId: company.id, assigneeAgentId: a.id })).toEqual({ allowed: true, reason: "allow_self" });
  });
});

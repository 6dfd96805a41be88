import { describe, expect, it } from "vitest";
import { get, patch, post } from "../helpers/api";
import { addMembership, boardUser, createCompany, insertAgent, insertAgentKey, insertRow, insertUser, schema, testD1 } from "../helpers/fixtures";

const BOGUS = { token: "svc_agent_bogus" };

async function memberIdOf(companyId: string, principalId: string) {
  const row = await testD1
    .prepare("SELECT id FROM company_memberships WHERE company_id = ?1 AND principal_id = ?2")
    .bind(companyId, principalId)
    .first<{ id: string }>();
  return row!.id;
}

/** A company whose only owner is a real user with a board key. */
async function ownedCompany() {
  const owner = await boardUser();
  const company = await createCompany({}, { token: owner.token });
  return { company, owner, ownerMemberId: await memberIdOf(company.id, owner.id) };
}

describe("members: list and directory", () => {
  it("lists user and agent memberships with names, emails and permissions", async () => {
    const { company, owner } = await ownedCompany();
    const viewer = await boardUser(company.id, "viewer");
    const agent = await insertAgent(company.id, { name: "Ada" });
    const now = new Date().toISOString();
    await insertRow(schema.companyMemberships, {
      id: crypto.randomUUID(),
      companyId: company.id,
      principalType: "agent",
      principalId: agent.id,
      membershipRole: "member",
      status: "active",
      createdAt: now,
      updatedAt: now,
    });
    const res = await get(`/api/companies/${company.id}/members`, { token: owner.token });
    expect(res.status).toBe(200);
    const ownerRow = res.body.find((m: any) => m.principalId === owner.id);
    expect(ownerRow).toMatchObject({ membershipRole: "owner", status: "active", user: { name: owner.name, email: `${owner.id}@example.com` } });
    expect(ownerRow.effectivePermissions).toContain("users:manage_permissions");
    expect(res.body.find((m: any) => m.principalId === viewer.id).effectivePermissions).toEqual([]);
    expect(res.body.find((m: any) => m.principalId === agent.id)).toMatchObject({ principalType: "agent", agent: { name: "Ada" }, user: null });
  });

  it("guards: 401, 404, other company 403, agents 403 on members but allowed on the directory", async () => {
    const { company } = await ownedCompany();
    const other = await createCompany();
    const outsider = await boardUser(other.id, "owner");
    const agent = await insertAgent(company.id);
    const { token } = await insertAgentKey(agent.id, company.id);
    expect((await get(`/api/companies/${company.id}/members`, BOGUS)).status).toBe(401);
    expect((await get(`/api/companies/${crypto.randomUUID()}/members`)).status).toBe(404);
    expect((await get(`/api/companies/${company.id}/members`, { token: outsider.token })).status).toBe(403);
    expect((await get(`/api/companies/${company.id}/members`, { token })).status).toBe(403);
    expect((await get(`/api/companies/${company.id}/user-directory`, BOGUS)).status).toBe(401);
    expect((await get(`/api/companies/${company.id}/user-directory`, { token: outsider.token })).status).toBe(403);
    expect((await get(`/api/companies/${crypto.randomUUID()}/user-directory`)).status).toBe(404);
    const dir = await get(`/api/companies/${company.id}/user-directory`, { token });
    expect(dir.status).toBe(200);
    expect(dir.body[0]).toEqual({ id: expect.any(String), name: expect.any(String), slug: expect.any(String), image: null, role: "owner" });
  });

  it("the directory lists only active users", async () => {
    const { company } = await ownedCompany();
    const gone = await insertUser();
    await addMembership(company.id, gone.id, "member", "inactive");
    const dir = await get(`/api/companies/${company.id}/user-directory`);
    expect(dir.body.map((u: any) => u.id)).not.toContain(gone.id);
  });
});

describe("members: changes", () => {
  it("the last active owner cannot be demoted, deactivated or archived (409) on every route", async () => {
    const { company, owner, ownerMemberId } = await ownedCompany();
    const base = `/api/companies/${company.id}/members/${ownerMemberId}`;
    const opts = { token: owner.token };
    for (const [method, path, body] of [
      ["patch", base, { membershipRole: "admin" }],
      ["patch", base, { status: "inactive" }],
      ["post", `${base}/archive`, undefined],
      ["patch", `${base}/role-and-grants`, { membershipRole: "member" }],
      ["patch", `${base}/role-and-grants`, { status: "inactive", grants: [] }],
    ] as const) {
      const res = method === "patch" ? await patch(path, body, opts) : await post(path, body, opts);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(409);
      expect(res.body.error).toMatch(/last active owner/);
    }
    const row = await testD1.prepare("SELECT membership_role, status FROM company_memberships WHERE id = ?1").bind(ownerMemberId).first();
    expect(row).toEqual({ membership_role: "owner", status: "active" });
    // With a second owner the demotion goes through.
    const second = await boardUser(company.id, "member");
    const promoted = await patch(`/api/companies/${company.id}/members/${await memberIdOf(company.id, second.id)}`, { membershipRole: "owner" }, opts);
    expect(promoted.status).toBe(200);
    expect((await patch(base, { membershipRole: "admin" }, opts)).status).toBe(200);
  });

  it("concurrent demotions of the two owners: one succeeds, one is refused", async () => {
    const { company, owner, ownerMemberId } = await ownedCompany();
    const second = await boardUser(company.id, "owner");
    const secondId = await memberIdOf(company.id, second.id);
    const results = await Promise.all([
      patch(`/api/companies/${company.id}/members/${ownerMemberId}`, { membershipRole: "admin" }),
      patch(`/api/companies/${company.id}/members/${secondId}`, { membershipRole: "admin" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const owners = await testD1
      .prepare("SELECT COUNT(*) AS n FROM company_memberships WHERE company_id = ?1 AND membership_role = 'owner' AND status = 'active'")
      .bind(company.id)
      .first<{ n: number }>();
    expect(owners?.n).toBe(1);
    void owner;
  });

  it("role-and-grants replaces the whole grant set and logs company_member.updated", async () => {
    const { company, owner } = await ownedCompany();
    const member = await boardUser(company.id, "member");
    const id = await memberIdOf(company.id, member.id);
    const path = `/api/companies/${company.id}/members/${id}/role-and-grants`;
    const first = await patch(
      path,
      {
        grants: [{ permissionKey: "users:invite" }, { permissionKey: "joins:approve" }, { permissionKey: "tasks:assign_scope", scope: { projectIds: ["p1"] } }],
      },
      { token: owner.token },
    );
    expect(first.status).toBe(200);
    expect(first.body.grants.map((g: any) => g.permissionKey).sort()).toEqual(["joins:approve", "tasks:assign_scope", "users:invite"]);
    expect(first.body.effectivePermissions).toEqual(["joins:approve", "tasks:assign", "users:invite"]);
    // The grant takes effect: the member may now invite.
    expect((await post(`/api/companies/${company.id}/invites`, {}, { token: member.token })).status).toBe(201);
    const second = await patch(path, { membershipRole: "viewer", grants: [{ permissionKey: "tasks:assign" }] }, { token: owner.token });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ membershipRole: "viewer" });
    expect(second.body.grants.map((g: any) => g.permissionKey)).toEqual(["tasks:assign"]);
    const rows = await testD1
      .prepare("SELECT COUNT(*) AS n FROM principal_permission_grants WHERE company_id = ?1 AND principal_id = ?2")
      .bind(company.id, member.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
    const logged = await testD1
      .prepare("SELECT details FROM activity_log WHERE company_id = ?1 AND action = 'company_member.updated' AND entity_id = ?2 ORDER BY created_at")
      .bind(company.id, id)
      .all<{ details: string }>();
    expect(logged.results).toHaveLength(2);
    expect(JSON.parse(logged.results[1].details).changes.membershipRole).toEqual({ from: "member", to: "viewer" });
    expect((await post(`/api/companies/${company.id}/invites`, {}, { token: member.token })).status).toBe(403);
    // Status change only keeps the grants.
    const third = await patch(path, { status: "inactive" }, { token: owner.token });
    expect(third.body).toMatchObject({ status: "inactive", grants: [{ permissionKey: "tasks:assign" }] });
    expect((await get(`/api/companies/${company.id}`, { token: member.token })).status).toBe(403);
  });

  it("validation: 400 for bad bodies, 404 for missing members", async () => {
    const { company, ownerMemberId } = await ownedCompany();
    const base = `/api/companies/${company.id}/members/${ownerMemberId}`;
    for (const [path, body] of [
      [base, {}],
      [base, { membershipRole: "king" }],
      [`${base}/role-and-grants`, {}],
      [`${base}/role-and-grants`, { grants: [{ permissionKey: "fly" }] }],
      [`${base}/role-and-grants`, { grants: [{ permissionKey: "tasks:assign_scope" }] }],
      [`${base}/permissions`, {}],
      [`${base}/permissions`, { grants: "all" }],
    ] as const) {
      expect((await patch(path, body)).status, `${path} ${JSON.stringify(body)}`).toBe(400);
    }
    expect((await post(`${base}/archive`, { reason: "x" })).status).toBe(400);
    const missing = `/api/companies/${company.id}/members/${crypto.randomUUID()}`;
    expect((await patch(missing, { status: "active" })).status).toBe(404);
    expect((await patch(`${missing}/permissions`, { grants: [] })).status).toBe(404);
    expect((await post(`${missing}/archive`)).status).toBe(404);
    expect((await patch(`${missing}/role-and-grants`, { status: "active" })).status).toBe(404);
    // A member of another company is missing here.
    const other = await ownedCompany();
    expect((await patch(`/api/companies/${company.id}/members/${other.ownerMemberId}`, { status: "active" })).status).toBe(404);
  });

  it("guards: users:manage_permissions (owner default), owner role changes need an owner, 401/403", async () => {
    const { company, owner } = await ownedCompany();
    const admin = await boardUser(company.id, "admin");
    const member = await boardUser(company.id, "member");
    const memberId = await memberIdOf(company.id, member.id);
    const other = await createCompany();
    const outsider = await boardUser(other.id, "owner");
    const agent = await insertAgent(company.id);
    const { token: agentToken } = await insertAgentKey(agent.id, company.id);
    const base = `/api/companies/${company.id}/members/${memberId}`;
    for (const token of [admin.token, outsider.token, agentToken]) {
      expect((await patch(base, { status: "inactive" }, { token })).status).toBe(403);
      expect((await patch(`${base}/permissions`, { grants: [] }, { token })).status).toBe(403);
      expect((await post(`${base}/archive`, undefined, { token })).status).toBe(403);
      expect((await patch(`${base}/role-and-grants`, { status: "inactive" }, { token })).status).toBe(403);
    }
    expect((await patch(base, { status: "inactive" }, BOGUS)).status).toBe(401);
    expect((await post(`${base}/archive`, undefined, BOGUS)).status).toBe(401);
    // An admin granted users:manage_permissions can manage, but not hand out the owner role.
    const adminId = await memberIdOf(company.id, admin.id);
    expect(
      (
        await patch(
          `/api/companies/${company.id}/members/${adminId}/permissions`,
          { grants: [{ permissionKey: "users:manage_permissions" }] },
          { token: owner.token },
        )
      ).status,
    ).toBe(200);
    expect((await patch(base, { membershipRole: "viewer" }, { token: admin.token })).status).toBe(200);
    expect((await patch(base, { membershipRole: "owner" }, { token: admin.token })).status).toBe(403);
    const archived = await post(`${base}/archive`, undefined, { token: admin.token });
    expect(archived.status).toBe(200);
    expect(archived.body.status).toBe("inactive");
  });
});

import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { AUTHENTICATED, get, post, put, unique } from "../helpers/api";
import { boardUser, clearTable, createCompany, insertAgent, insertAgentKey, insertUser, schema, signUp, updateRow, testD1 } from "../helpers/fixtures";
import { mintBoardClaimTokenIfNeeded } from "../../src/domain/access/board-claim";
import { runAccessMaintenance } from "../../src/domain/instance/maintenance";
import { createDb } from "../../src/db/client";

const BOGUS = { token: "svc_agent_bogus" };

describe("admin users", () => {
  it("lists and searches users (instance admin only)", async () => {
    const name = unique("Findme");
    const user = await insertUser(name);
    const res = await get(`/api/admin/users?query=${encodeURIComponent(name.toLowerCase())}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([expect.objectContaining({ id: user.id, name, isInstanceAdmin: false, activeCompanyCount: 0 })]);
    expect((await get(`/api/admin/users?query=${encodeURIComponent(`${user.id}@example`)}`)).body.map((u: any) => u.id)).toEqual([user.id]);
    expect((await get("/api/admin/users?query=%25")).status).toBe(200);
    expect((await get("/api/admin/users?limit=0")).status).toBe(400);
    const plain = await boardUser((await createCompany()).id, "owner");
    expect((await get("/api/admin/users", { token: plain.token })).status).toBe(403);
    const agent = await insertAgent((await createCompany()).id);
    expect((await get("/api/admin/users", { token: (await insertAgentKey(agent.id, agent.companyId)).token })).status).toBe(403);
    expect((await get("/api/admin/users", BOGUS)).status).toBe(401);
  });

  it("promotes and demotes instance admins; the last one stays", async () => {
    await clearTable(schema.instanceAdmins);
    const a = await boardUser();
    const b = await boardUser();
    expect((await get("/api/admin/users", { token: a.token })).status).toBe(403);
    const promoted = await post(`/api/admin/users/${a.id}/promote-instance-admin`);
    expect(promoted.status).toBe(200);
    expect(promoted.body.isInstanceAdmin).toBe(true);
    expect((await post(`/api/admin/users/${a.id}/promote-instance-admin`)).status).toBe(200);
    expect((await get("/api/admin/users", { token: a.token })).status).toBe(200);
    const last = await post(`/api/admin/users/${a.id}/demote-instance-admin`, undefined, { token: a.token });
    expect(last.status).toBe(409);
    expect(last.body.error).toMatch(/last instance admin/);
    expect((await post(`/api/admin/users/${b.id}/promote-instance-admin`, undefined, { token: a.token })).status).toBe(200);
    // Two concurrent demotions of the only two admins: one stays.
    const both = await Promise.all([post(`/api/admin/users/${a.id}/demote-instance-admin`), post(`/api/admin/users/${b.id}/demote-instance-admin`)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const left = await testD1.prepare("SELECT COUNT(*) AS n FROM instance_admins").first<{ n: number }>();
    expect(left?.n).toBe(1);
    const nonAdmin = both[0].status === 200 ? a : b;
    expect((await post(`/api/admin/users/${nonAdmin.id}/demote-instance-admin`)).body.isInstanceAdmin).toBe(false);
    expect((await post(`/api/admin/users/${nonAdmin.id}/promote-instance-admin`, undefined, { token: nonAdmin.token })).status).toBe(403);
    expect((await post(`/api/admin/users/missing-user/promote-instance-admin`)).status).toBe(404);
    expect((await post(`/api/admin/users/missing-user/demote-instance-admin`)).status).toBe(404);
    expect((await post(`/api/admin/users/${a.id}/promote-instance-admin`, undefined, BOGUS)).status).toBe(401);
  });

  it("reads and replaces a user's company access", async () => {
    const c1 = await createCompany();
    const c2 = await createCompany();
    const user = await boardUser(c1.id, "member");
    const path = `/api/admin/users/${user.id}/company-access`;
    const before = await get(path);
    expect(before.status).toBe(200);
    expect(before.body.memberships).toEqual([expect.objectContaining({ companyId: c1.id, membershipRole: "member", status: "active" })]);
    const replaced = await put(path, { memberships: [{ companyId: c2.id, membershipRole: "admin" }] });
    expect(replaced.status).toBe(200);
    const byCompany = Object.fromEntries(replaced.body.memberships.map((m: any) => [m.companyId, m]));
    expect(byCompany[c1.id]).toMatchObject({ status: "inactive" });
    expect(byCompany[c2.id]).toMatchObject({ status: "active", membershipRole: "admin" });
    expect((await get(`/api/companies/${c1.id}`, { token: user.token })).status).toBe(403);
    expect((await get(`/api/companies/${c2.id}`, { token: user.token })).status).toBe(200);
    const log = await testD1
      .prepare("SELECT COUNT(*) AS n FROM activity_log WHERE action = 'company_member.updated' AND company_id IN (?1, ?2)")
      .bind(c1.id, c2.id)
      .first<{ n: number }>();
    expect(log?.n).toBe(2);
    expect((await put(path, { memberships: [{ companyId: crypto.randomUUID(), membershipRole: "admin" }] })).status).toBe(422);
    expect(
      (
        await put(path, {
          memberships: [
            { companyId: c2.id, membershipRole: "admin" },
            { companyId: c2.id, membershipRole: "member" },
          ],
        })
      ).status,
    ).toBe(400);
    expect((await put(path, { memberships: [{ companyId: c2.id, membershipRole: "boss" }] })).status).toBe(400);
    expect((await put(path, {})).status).toBe(400);
    expect((await get(`/api/admin/users/missing/company-access`)).status).toBe(404);
    expect((await put(`/api/admin/users/missing/company-access`, { memberships: [] })).status).toBe(404);
    expect((await get(path, { token: user.token })).status).toBe(403);
    expect((await put(path, { memberships: [] }, BOGUS)).status).toBe(401);
  });

  it("refuses to remove the last owner of a company through company access, changing nothing", async () => {
    const owner = await boardUser();
    const company = await createCompany({}, { token: owner.token });
    const other = await createCompany();
    const path = `/api/admin/users/${owner.id}/company-access`;
    const res = await put(path, { memberships: [{ companyId: other.id, membershipRole: "member" }] });
    expect(res.status).toBe(409);
    expect(res.body.details.companyId).toBe(company.id);
    const after = await get(path);
    expect(after.body.memberships).toEqual([expect.objectContaining({ companyId: company.id, membershipRole: "owner", status: "active" })]);
  });
});

describe("board claim", () => {
  it("a signed-in user claims the local board's companies once", async () => {
    const company = await createCompany(); // owned by the implicit local board
    await clearTable(schema.boardClaimTokens);
    const minted = await mintBoardClaimTokenIfNeeded(createDb(testD1));
    expect(minted?.token).toMatch(/^svc_boardclaim_/);
    expect(await mintBoardClaimTokenIfNeeded(createDb(testD1))).toBeNull(); // one live token at a time
    const stored = await testD1.prepare("SELECT token_hash FROM board_claim_tokens WHERE id = ?1").bind(minted!.id).first<{ token_hash: string }>();
    expect(stored?.token_hash).not.toContain(minted!.token);

    const view = await get(`/api/board-claim/${minted!.token}`);
    expect(view.status).toBe(200);
    expect(view.body.status).toBe("pending");
    expect(view.body.companies.map((c: any) => c.id)).toContain(company.id);
    expect((await get(`/api/board-claim/svc_boardclaim_nope`)).status).toBe(404);

    expect((await post(`/api/board-claim/${minted!.token}/claim`, undefined, { env: AUTHENTICATED })).status).toBe(401);
    expect((await post(`/api/board-claim/${minted!.token}/claim`)).status).toBe(403); // implicit local board
    const agent = await insertAgent(company.id);
    expect((await post(`/api/board-claim/${minted!.token}/claim`, undefined, { token: (await insertAgentKey(agent.id, company.id)).token })).status).toBe(403);
    // Authentication comes before validation: an anonymous caller with a bad body is 401.
    expect((await post(`/api/board-claim/${minted!.token}/claim`, { x: 1 }, { env: AUTHENTICATED })).status).toBe(401);
    expect((await post(`/api/board-claim/${minted!.token}/claim`, { x: 1 })).status).toBe(400);

    const person = await signUp();
    const claimed = await post(`/api/board-claim/${minted!.token}/claim`, undefined, { env: AUTHENTICATED, cookie: person.cookie });
    expect(claimed.status).toBe(200);
    expect(claimed.body.companies).toContainEqual({ id: company.id, name: company.name, claimed: true });
    expect((await get(`/api/companies/${company.id}`, { env: AUTHENTICATED, cookie: person.cookie })).status).toBe(200);
    const rows = await testD1
      .prepare("SELECT principal_id, membership_role, status FROM company_memberships WHERE company_id = ?1 ORDER BY principal_id = 'local-board'")
      .bind(company.id)
      .all();
    expect(rows.results).toEqual([
      { principal_id: person.userId, membership_role: "owner", status: "active" },
      { principal_id: "local-board", membership_role: "owner", status: "inactive" },
    ]);
    const again = await post(`/api/board-claim/${minted!.token}/claim`, {}, { env: AUTHENTICATED, cookie: (await signUp()).cookie });
    expect(again.status).toBe(409);
    expect((await get(`/api/board-claim/${minted!.token}`)).body.status).toBe("claimed");
  });

  it("expired tokens are refused; the cron mints a new token in authenticated mode only", async () => {
    await createCompany();
    await clearTable(schema.boardClaimTokens);
    await runAccessMaintenance({ ...env } as Env, new Date());
    expect((await testD1.prepare("SELECT COUNT(*) AS n FROM board_claim_tokens").first<{ n: number }>())?.n).toBe(0);
    await runAccessMaintenance({ ...env, DEPLOYMENT_MODE: "authenticated" } as Env, new Date());
    expect((await testD1.prepare("SELECT COUNT(*) AS n FROM board_claim_tokens").first<{ n: number }>())?.n).toBe(1);

    const minted = await mintBoardClaimTokenIfNeeded(createDb(testD1), new Date(Date.now() + 2 * 3_600_000));
    expect(minted).not.toBeNull();
    await updateRow(schema.boardClaimTokens, minted!.id, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect((await get(`/api/board-claim/${minted!.token}`)).body.status).toBe("expired");
    const person = await signUp();
    const res = await post(`/api/board-claim/${minted!.token}/claim`, {}, { env: AUTHENTICATED, cookie: person.cookie });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/expired/);
  });
});

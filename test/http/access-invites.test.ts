import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { get, patch, post, unique } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, insertRow, schema, updateRow, testD1 } from "../helpers/fixtures";

const BOGUS = { token: "svc_agent_bogus" };

async function invite(companyId: string, body: Record<string, unknown> = {}, options = {}) {
  const res = await post(`/api/companies/${companyId}/invites`, body, options);
  if (res.status !== 201) throw new Error(`invite failed ${res.status} ${res.text}`);
  return res.body as { id: string; token: string; urls: Record<string, string>; [k: string]: any };
}

describe("invites: create and list", () => {
  it("creates a human invite with a token shown once, a 7-day default expiry and URLs; lists without tokens", async () => {
    const company = await createCompany();
    const res = await post(`/api/companies/${company.id}/invites`, { membershipRole: "admin" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ inviteType: "human", membershipRole: "admin", status: "pending", requiresApproval: false });
    expect(res.body.token).toMatch(/^svc_invite_[A-Za-z0-9_-]{43}$/);
    expect(res.body.urls.accept).toBe(`http://localhost/api/invites/${res.body.token}/accept`);
    const days = (Date.parse(res.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const list = await get(`/api/companies/${company.id}/invites`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0].id).toBe(res.body.id);
    expect(list.body[0].token).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);
  });

  it("rejects bad input with 400", async () => {
    const company = await createCompany();
    for (const body of [
      { inviteType: "robot" },
      { membershipRole: "emperor" },
      { inviteType: "human", agentName: "x" },
      { inviteType: "agent", requiresApproval: false },
      { expiresInHours: 0 },
      { unknownField: true },
    ]) {
      const res = await post(`/api/companies/${company.id}/invites`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBeTypeOf("string");
    }
    expect((await get(`/api/companies/${company.id}/invites`)).body).toHaveLength(0);
  });

  it("guards: 401 without credentials, 404 missing company, 403 other company, agents and members without users:invite", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const outsider = await boardUser(other.id, "owner");
    const viewer = await boardUser(company.id, "viewer");
    const admin = await boardUser(company.id, "admin");
    const agent = await insertAgent(company.id);
    const { token: agentToken } = await insertAgentKey(agent.id, company.id);
    expect((await post(`/api/companies/${company.id}/invites`, {}, BOGUS)).status).toBe(401);
    expect((await get(`/api/companies/${company.id}/invites`, BOGUS)).status).toBe(401);
    expect((await post(`/api/companies/${crypto.randomUUID()}/invites`, {})).status).toBe(404);
    expect((await post(`/api/companies/${company.id}/invites`, {}, { token: outsider.token })).status).toBe(403);
    expect((await get(`/api/companies/${company.id}/invites`, { token: outsider.token })).status).toBe(403);
    expect((await post(`/api/companies/${company.id}/invites`, {}, { token: viewer.token })).status).toBe(403);
    expect((await post(`/api/companies/${company.id}/invites`, {}, { token: agentToken })).status).toBe(403);
    expect((await post(`/api/companies/${company.id}/invites`, {}, { token: admin.token })).status).toBe(201);
    // Only an owner hands out the owner role.
    expect((await post(`/api/companies/${company.id}/invites`, { membershipRole: "owner" }, { token: admin.token })).status).toBe(403);
  });
});

describe("invites: recipient views", () => {
  it("serves summary, onboarding JSON and text, skills, and 404 for unknown tokens", async () => {
    const company = await createCompany();
    const inv = await invite(company.id, { inviteType: "agent", agentName: "Scout", agentRole: "researcher", note: "welcome" });
    const summary = await get(`/api/invites/${inv.token}`);
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({
      companyId: company.id,
      companyName: company.name,
      inviteType: "agent",
      agentName: "Scout",
      agentRole: "researcher",
      status: "pending",
      hasLogo: false,
      note: "welcome",
    });
    const onboarding = await get(`/api/invites/${inv.token}/onboarding`);
    expect(onboarding.status).toBe(200);
    expect(onboarding.body.steps.length).toBeGreaterThanOrEqual(4);
    expect(onboarding.body.skills.map((s: any) => s.name)).toContain("service-api");
    const text = await get(`/api/invites/${inv.token}/onboarding.txt`);
    expect(text.status).toBe(200);
    expect(text.headers.get("content-type")).toContain("text/plain");
    expect(text.text).toContain(company.name);
    expect(text.text).toContain(`/api/invites/${inv.token}/accept`);
    expect(text.text).toContain("claim-api-key");
    const index = await get(`/api/invites/${inv.token}/skills/index`);
    expect(index.status).toBe(200);
    expect(index.body.skills.length).toBeGreaterThanOrEqual(2);
    const skill = await get(`/api/invites/${inv.token}/skills/service-api`);
    expect(skill.status).toBe(200);
    expect(skill.headers.get("content-type")).toContain("text/markdown");
    expect(skill.text).toContain("/checkout");
    expect(skill.text).toContain("Authorization: Bearer");
    expect(skill.text).not.toContain("{{");
    expect((await get(`/api/invites/${inv.token}/skills/nope`)).status).toBe(404);
    expect((await get(`/api/invites/${inv.token}/skills/BAD!`)).status).toBe(400);
    for (const suffix of ["", "/onboarding", "/onboarding.txt", "/skills/index", "/skills/service-api", "/logo"]) {
      expect((await get(`/api/invites/svc_invite_unknown${suffix}`)).status, suffix).toBe(404);
    }
  });

  it("serves the company logo bytes from R2, 404 without a logo", async () => {
    const company = await createCompany();
    const inv = await invite(company.id);
    expect((await get(`/api/invites/${inv.token}/logo`)).status).toBe(404);
    const assetId = crypto.randomUUID();
    const key = `companies/${company.id}/assets/${assetId}`;
    const bytes = new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>");
    await env.FILES.put(key, bytes);
    await insertRow(schema.assets, {
      id: assetId,
      companyId: company.id,
      kind: "logo",
      contentType: "image/svg+xml",
      byteSize: bytes.length,
      sha256: "x",
      objectKey: key,
      createdAt: new Date().toISOString(),
    });
    await updateRow(schema.companies, company.id, { logoAssetId: assetId });
    const logo = await get(`/api/invites/${inv.token}/logo`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get("content-type")).toBe("image/svg+xml");
    expect(logo.text).toContain("<svg");
    expect((await get(`/api/invites/${inv.token}`)).body.hasLogo).toBe(true);
  });

  it("test-resolution checks a URL in form only", async () => {
    const company = await createCompany();
    const inv = await invite(company.id);
    const check = (url: string) => get(`/api/invites/${inv.token}/test-resolution?url=${encodeURIComponent(url)}`);
    const pub = await check("https://gateway.example.com/api");
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({
      wellFormed: true,
      scheme: "https",
      host: "gateway.example.com",
      port: 443,
      hostKind: "hostname",
      isLoopback: false,
      isPrivate: false,
      reachableByGateway: true,
      publiclyRoutable: true,
    });
    const loop = await check("http://127.0.0.1:8080/");
    expect(loop.body).toMatchObject({ isLoopback: true, port: 8080, gatewayRule: "allowed", publiclyRoutable: false });
    const priv = await check("http://10.1.2.3/");
    expect(priv.body).toMatchObject({ isPrivate: true, gatewayRule: "requires_insecure_http_flag", reachableByGateway: false });
    expect((await check("http://[::1]:3000/")).body).toMatchObject({ hostKind: "ipv6", isLoopback: true });
    expect((await check("http://169.254.169.254/")).body).toMatchObject({ isLinkLocal: true });
    expect((await check("ftp://example.com/")).body).toMatchObject({ wellFormed: false, reachableByGateway: false });
    expect((await check("not a url")).body).toMatchObject({ wellFormed: false });
    expect((await get(`/api/invites/${inv.token}/test-resolution`)).status).toBe(400);
    expect((await get(`/api/invites/svc_invite_unknown/test-resolution?url=https://x.com`)).status).toBe(404);
  });
});

describe("invites: accept, revoke, expiry", () => {
  it("a human invite makes the signed-in board user a member with the role; reuse is refused", async () => {
    const company = await createCompany();
    const inv = await invite(company.id, { membershipRole: "admin" });
    const user = await boardUser();
    expect((await get(`/api/companies/${company.id}`, { token: user.token })).status).toBe(403);
    expect((await post(`/api/invites/${inv.token}/accept`, {}, BOGUS)).status).toBe(401);
    expect((await post(`/api/invites/${inv.token}/accept`, {})).status).toBe(400); // implicit local board
    const agent = await insertAgent(company.id);
    const { token: agentToken } = await insertAgentKey(agent.id, company.id);
    expect((await post(`/api/invites/${inv.token}/accept`, {}, { token: agentToken })).status).toBe(403);
    expect((await post(`/api/invites/${inv.token}/accept`, { agentName: "x" }, { token: user.token })).status).toBe(400);
    const res = await post(`/api/invites/${inv.token}/accept`, undefined, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      inviteType: "human",
      outcome: "joined",
      companyId: company.id,
      membership: { membershipRole: "admin", status: "active" },
      claimSecret: null,
    });
    expect((await get(`/api/companies/${company.id}`, { token: user.token })).status).toBe(200);
    const again = await post(`/api/invites/${inv.token}/accept`, {}, { token: (await boardUser()).token });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already been used/);
    expect((await get(`/api/invites/${inv.token}`)).body.status).toBe("accepted");
    expect((await post(`/api/invites/svc_invite_unknown/accept`, {}, { token: user.token })).status).toBe(404);
  });

  it("a human invite with requiresApproval files a join request; approval activates the membership", async () => {
    const company = await createCompany();
    const inv = await invite(company.id, { requiresApproval: true, membershipRole: "viewer" });
    const user = await boardUser();
    const res = await post(`/api/invites/${inv.token}/accept`, { message: "hi" }, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      outcome: "pending_approval",
      joinRequest: { requestType: "human", requestingUserId: user.id, status: "pending_approval" },
    });
    const approved = await post(`/api/companies/${company.id}/join-requests/${res.body.joinRequest.id}/approve`, {});
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe("approved");
    expect((await get(`/api/companies/${company.id}`, { token: user.token })).status).toBe(200);
  });

  it("revoke: idempotent, blocks acceptance, 409 after use, 404 across companies, 401/403 guards", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const outsider = await boardUser(other.id, "owner");
    const inv = await invite(company.id);
    expect((await post(`/api/invites/${inv.id}/revoke`, undefined, BOGUS)).status).toBe(401);
    expect((await post(`/api/invites/${inv.id}/revoke`, undefined, { token: outsider.token })).status).toBe(404);
    const viewer = await boardUser(company.id, "viewer");
    expect((await post(`/api/invites/${inv.id}/revoke`, undefined, { token: viewer.token })).status).toBe(403);
    expect((await post(`/api/invites/${crypto.randomUUID()}/revoke`)).status).toBe(404);
    const revoked = await post(`/api/invites/${inv.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe("revoked");
    expect((await post(`/api/invites/${inv.id}/revoke`)).status).toBe(200);
    const accept = await post(`/api/invites/${inv.token}/accept`, {}, { token: (await boardUser()).token });
    expect(accept.status).toBe(409);
    expect(accept.body.error).toMatch(/revoked/);

    const used = await invite(company.id);
    expect((await post(`/api/invites/${used.token}/accept`, {}, { token: (await boardUser()).token })).status).toBe(200);
    expect((await post(`/api/invites/${used.id}/revoke`)).status).toBe(409);
  });

  it("an expired invite reads as expired and cannot be accepted", async () => {
    const company = await createCompany();
    const inv = await invite(company.id, { expiresInHours: 1 });
    await updateRow(schema.companyInvites, inv.id, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect((await get(`/api/invites/${inv.token}`)).body.status).toBe("expired");
    const res = await post(`/api/invites/${inv.token}/accept`, {}, { token: (await boardUser()).token });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/expired/);
  });

  it("two concurrent accepts of one invite: one wins", async () => {
    const company = await createCompany();
    const inv = await invite(company.id, { inviteType: "agent" });
    const results = await Promise.all([1, 2, 3].map(() => post(`/api/invites/${inv.token}/accept`, {})));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });
});

describe("agent invites and join requests", () => {
  it("accept → pending request with a claim secret → approve creates the agent → claim the key once", async () => {
    const company = await createCompany();
    const inv = await invite(company.id, { inviteType: "agent", agentName: "Scout", agentRole: "researcher", adapterType: "http" });
    const accepted = await post(`/api/invites/${inv.token}/accept`, { capabilities: "search" }, BOGUS);
    expect(accepted.status).toBe(200);
    expect(accepted.body.outcome).toBe("pending_approval");
    const secret: string = accepted.body.claimSecret;
    expect(secret).toMatch(/^svc_claim_/);
    const requestId: string = accepted.body.joinRequest.id;
    expect(accepted.body.claimApiKeyUrl).toBe(`http://localhost/api/join-requests/${requestId}/claim-api-key`);

    const pending = await get(`/api/companies/${company.id}/join-requests?status=pending`);
    expect(pending.status).toBe(200);
    expect(pending.body.map((r: any) => r.id)).toEqual([requestId]);
    expect(pending.body[0]).toMatchObject({ agentName: "Scout", adapterType: "http", agentRole: "researcher", capabilities: "search", apiKeyClaimed: false });
    expect((await get(`/api/companies/${company.id}/join-requests?status=approved`)).body).toHaveLength(0);
    expect((await get(`/api/companies/${company.id}/join-requests?requestType=human`)).body).toHaveLength(0);
    expect((await get(`/api/companies/${company.id}/join-requests?status=bogus`)).status).toBe(400);
    expect(JSON.stringify(pending.body)).not.toContain(secret);

    const early = await post(`/api/join-requests/${requestId}/claim-api-key`, { claimSecret: secret });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatch(/not been approved/);

    const approved = await post(`/api/companies/${company.id}/join-requests/${requestId}/approve`, undefined);
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe("approved");
    const agentId = approved.body.agentId;
    const agent = await testD1.prepare("SELECT * FROM agents WHERE id = ?1").bind(agentId).first<any>();
    expect(agent).toMatchObject({ company_id: company.id, name: "Scout", url_key: "scout", role: "researcher", adapter_type: "http", status: "idle" });
    const membership = await testD1
      .prepare("SELECT * FROM company_memberships WHERE principal_type = 'agent' AND principal_id = ?1")
      .bind(agentId)
      .first<any>();
    expect(membership).toMatchObject({ status: "active", membership_role: "member" });
    expect((await post(`/api/companies/${company.id}/join-requests/${requestId}/approve`, {})).status).toBe(409);

    expect((await post(`/api/join-requests/${requestId}/claim-api-key`, { claimSecret: "svc_claim_wrong" })).status).toBe(403);
    expect((await post(`/api/join-requests/${requestId}/claim-api-key`, {})).status).toBe(400);
    expect((await post(`/api/join-requests/${crypto.randomUUID()}/claim-api-key`, { claimSecret: secret })).status).toBe(404);
    const claimed = await post(`/api/join-requests/${requestId}/claim-api-key`, { claimSecret: secret });
    expect(claimed.status).toBe(201);
    expect(claimed.body).toMatchObject({ agentId, companyId: company.id });
    expect(claimed.body.token).toMatch(/^svc_agent_/);
    // The key works and acts as that agent.
    const asAgent = await get(`/api/companies/${company.id}/user-directory`, { token: claimed.body.token });
    expect(asAgent.status).toBe(200);
    const again = await post(`/api/join-requests/${requestId}/claim-api-key`, { claimSecret: secret });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already been claimed/);
  });

  it("concurrent claims: exactly one key", async () => {
    const company = await createCompany();
    const inv = await invite(company.id, { inviteType: "agent" });
    const accepted = await post(`/api/invites/${inv.token}/accept`, {});
    const requestId = accepted.body.joinRequest.id;
    await post(`/api/companies/${company.id}/join-requests/${requestId}/approve`, {});
    const results = await Promise.all([1, 2, 3].map(() => post(`/api/join-requests/${requestId}/claim-api-key`, { claimSecret: accepted.body.claimSecret })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const keys = await testD1
      .prepare("SELECT COUNT(*) AS n FROM agent_api_keys WHERE agent_id = (SELECT agent_id FROM join_requests WHERE id = ?1)")
      .bind(requestId)
      .first<{ n: number }>();
    expect(keys?.n).toBe(1);
  });

  it("reject: claim refused, no agent; duplicate names get a suffix", async () => {
    const company = await createCompany();
    await insertAgent(company.id, { name: "Scout" });
    const a = await invite(company.id, { inviteType: "agent", agentName: "Scout" });
    const b = await invite(company.id, { inviteType: "agent", agentName: "Scout" });
    const ra = await post(`/api/invites/${a.token}/accept`, {});
    const rb = await post(`/api/invites/${b.token}/accept`, {});
    const rejected = await post(`/api/companies/${company.id}/join-requests/${ra.body.joinRequest.id}/reject`, { note: "no" });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: "rejected", agentId: null, decisionNote: "no" });
    const claim = await post(`/api/join-requests/${ra.body.joinRequest.id}/claim-api-key`, { claimSecret: ra.body.claimSecret });
    expect(claim.status).toBe(409);
    expect(claim.body.error).toMatch(/rejected/);
    expect((await post(`/api/companies/${company.id}/join-requests/${ra.body.joinRequest.id}/approve`, {})).status).toBe(409);
    const approved = await post(`/api/companies/${company.id}/join-requests/${rb.body.joinRequest.id}/approve`, {});
    const agent = await testD1.prepare("SELECT name, url_key, adapter_type, role FROM agents WHERE id = ?1").bind(approved.body.agentId).first<any>();
    expect(agent).toEqual({ name: "Scout 2", url_key: "scout-2", adapter_type: "process", role: "general" });
    expect((await get(`/api/companies/${company.id}/join-requests?status=rejected`)).body).toHaveLength(1);
  });

  it("join-request guards: joins:approve by role or grant, other company 403, agents 403, 401, 404", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const inv = await invite(company.id, { inviteType: "agent" });
    const requestId = (await post(`/api/invites/${inv.token}/accept`, {})).body.joinRequest.id;
    const outsider = await boardUser(other.id, "owner");
    const member = await boardUser(company.id, "member");
    const admin = await boardUser(company.id, "admin");
    const agent = await insertAgent(company.id);
    const { token: agentToken } = await insertAgentKey(agent.id, company.id);
    const approvePath = `/api/companies/${company.id}/join-requests/${requestId}/approve`;
    expect((await get(`/api/companies/${company.id}/join-requests`, BOGUS)).status).toBe(401);
    expect((await post(approvePath, {}, BOGUS)).status).toBe(401);
    expect((await get(`/api/companies/${company.id}/join-requests`, { token: outsider.token })).status).toBe(403);
    expect((await post(approvePath, {}, { token: outsider.token })).status).toBe(403);
    expect((await post(approvePath, {}, { token: member.token })).status).toBe(403);
    expect((await post(approvePath, {}, { token: agentToken })).status).toBe(403);
    expect((await get(`/api/companies/${company.id}/join-requests`, { token: agentToken })).status).toBe(403);
    expect((await post(`/api/companies/${crypto.randomUUID()}/join-requests/${requestId}/approve`, {})).status).toBe(404);
    expect((await post(`/api/companies/${company.id}/join-requests/${crypto.randomUUID()}/reject`, {})).status).toBe(404);
    expect((await post(`/api/companies/${other.id}/join-requests/${requestId}/approve`, {})).status).toBe(404);
    expect((await post(approvePath, { note: 5 })).status).toBe(400);
    // An explicit joins:approve grant lets a member decide.
    const memberRow = await testD1.prepare("SELECT id FROM company_memberships WHERE principal_id = ?1").bind(member.id).first<{ id: string }>();
    const granted = await patch(`/api/companies/${company.id}/members/${memberRow!.id}/permissions`, { grants: [{ permissionKey: "joins:approve" }] });
    expect(granted.status).toBe(200);
    expect((await get(`/api/companies/${company.id}/join-requests`, { token: member.token })).status).toBe(200);
    expect((await post(approvePath, {}, { token: member.token })).status).toBe(200);
    expect((await get(`/api/companies/${company.id}/join-requests`, { token: admin.token })).status).toBe(200);
  });
});

describe("remote gateway invite prompt", () => {
  it("creates an agent invite and a prompt with its URLs", async () => {
    const company = await createCompany();
    const res = await post(`/api/companies/${company.id}/remote-gateway/invite-prompt`, {
      agentName: "Remote Rex",
      role: "engineer",
      gatewayUrl: "http://10.0.0.8:7000",
    });
    expect(res.status).toBe(201);
    expect(res.body.invite).toMatchObject({ inviteType: "agent", adapterType: "remote_gateway", agentRole: "engineer", source: "remote-gateway" });
    expect(res.body.prompt).toContain(res.body.invite.urls.accept);
    expect(res.body.prompt).toContain(res.body.invite.urls.onboardingText);
    expect(res.body.prompt).toContain("claim-api-key");
    expect(res.body.gatewayUrlCheck).toMatchObject({ isPrivate: true, gatewayRule: "requires_insecure_http_flag" });
    expect((await get(`/api/invites/${res.body.invite.token}`)).body.agentName).toBe("Remote Rex");
  });

  it("guards and validation", async () => {
    const company = await createCompany();
    const other = await createCompany();
    const outsider = await boardUser(other.id, "owner");
    const path = `/api/companies/${company.id}/remote-gateway/invite-prompt`;
    expect((await post(path, { role: "Not A Role" })).status).toBe(400);
    expect((await post(path, { extra: 1 })).status).toBe(400);
    expect((await post(path, {}, BOGUS)).status).toBe(401);
    expect((await post(path, {}, { token: outsider.token })).status).toBe(403);
    expect((await post(`/api/companies/${crypto.randomUUID()}/remote-gateway/invite-prompt`, {})).status).toBe(404);
    expect((await post(path, {})).status).toBe(201);
  });
});

describe("openapi", () => {
  it("documents every access route", async () => {
    const doc = (await get("/api/openapi.json")).body;
    const paths = [
      "/api/companies/{companyId}/invites",
      "/api/invites/{inviteId}/revoke",
      "/api/invites/{token}",
      "/api/invites/{token}/logo",
      "/api/invites/{token}/onboarding",
      "/api/invites/{token}/onboarding.txt",
      "/api/invites/{token}/skills/index",
      "/api/invites/{token}/skills/{skillName}",
      "/api/invites/{token}/accept",
      "/api/invites/{token}/test-resolution",
      "/api/companies/{companyId}/join-requests",
      "/api/companies/{companyId}/join-requests/{requestId}/approve",
      "/api/companies/{companyId}/join-requests/{requestId}/reject",
      "/api/join-requests/{requestId}/claim-api-key",
      "/api/companies/{companyId}/members",
      "/api/companies/{companyId}/user-directory",
      "/api/companies/{companyId}/members/{memberId}",
      "/api/companies/{companyId}/members/{memberId}/permissions",
      "/api/companies/{companyId}/members/{memberId}/archive",
      "/api/companies/{companyId}/members/{memberId}/role-and-grants",
      "/api/admin/users",
      "/api/admin/users/{userId}/promote-instance-admin",
      "/api/admin/users/{userId}/demote-instance-admin",
      "/api/admin/users/{userId}/company-access",
      "/api/instance/scheduler-heartbeats",
      "/api/instance/settings/general",
      "/api/instance/settings/experimental",
      "/api/instance/settings/experimental/issue-graph-liveness-auto-recovery/preview",
      "/api/instance/settings/experimental/issue-graph-liveness-auto-recovery/run",
      "/api/instance/database-backups",
      "/api/sidebar-preferences/me",
      "/api/companies/{companyId}/sidebar-preferences/me",
      "/api/companies/{companyId}/sidebar-badges",
      "/api/companies/{companyId}/inbox-dismissals",
      "/api/board-claim/{token}",
      "/api/board-claim/{token}/claim",
      "/api/companies/{companyId}/remote-gateway/invite-prompt",
    ];
    for (const p of paths) expect(doc.paths[p], p).toBeDefined();
    expect(Object.keys(doc.paths["/api/admin/users/{userId}/company-access"]).sort()).toEqual(["get", "put"]);
  });
});

void unique;

// Sessions and profiles: get-session, the caller's profile, a member's profile.
import { describe, expect, it } from "vitest";
import { AUTHENTICATED, get, patch, post } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, signUp } from "../helpers/fixtures";

describe("GET /api/auth/get-session", () => {
  it("reports the implicit local session in local_trusted mode", async () => {
    const res = await get("/api/auth/get-session");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ session: { source: "local_implicit", userId: "local-board" }, user: { id: "local-board" } });
  });

  it("returns the signed-in user's session, and null when signed out", async () => {
    const { cookie, userId, email } = await signUp();
    const res = await get("/api/auth/get-session", { env: AUTHENTICATED, cookie });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: userId, email });
    expect(res.body.session.userId).toBe(userId);
    const out = await get("/api/auth/get-session", { env: AUTHENTICATED });
    expect(out.body).toBeNull();
  });

  it("signs in and out through better-auth", async () => {
    const { email } = await signUp();
    const bad = await post("/api/auth/sign-in/email", { email, password: "wrong password" }, { env: AUTHENTICATED });
    expect(bad.status).toBe(401);
    const ok = await post("/api/auth/sign-in/email", { email, password: "correct horse battery" }, { env: AUTHENTICATED });
    expect(ok.status).toBe(200);
    const cookie = (ok.headers.get("set-cookie") ?? "").split(";")[0];
    expect((await get("/api/auth/profile", { env: AUTHENTICATED, cookie })).status).toBe(200);
    // Cookie-authenticated POSTs need the browser's Origin header (better-auth's CSRF check).
    const signOut = await post("/api/auth/sign-out", {}, { env: AUTHENTICATED, cookie, headers: { origin: "http://localhost" } });
    expect(signOut.status).toBe(200);
    expect((await get("/api/auth/profile", { env: AUTHENTICATED, cookie })).status).toBe(401);
  });
});

describe("/api/auth/profile", () => {
  it("reads and updates the caller's profile", async () => {
    const { cookie, userId } = await signUp("Ada Lovelace");
    const me = await get("/api/auth/profile", { env: AUTHENTICATED, cookie });
    expect(me.body).toMatchObject({ id: userId, name: "Ada Lovelace", slug: "ada-lovelace", authSource: "session", isInstanceAdmin: false });
    const updated = await patch("/api/auth/profile", { name: "Ada King", image: "https://img.example.com/ada.png" }, { env: AUTHENTICATED, cookie });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: "Ada King", slug: "ada-king", image: "https://img.example.com/ada.png" });
    expect((await patch("/api/auth/profile", {}, { env: AUTHENTICATED, cookie })).status).toBe(400);
    expect((await patch("/api/auth/profile", { image: "not a url" }, { env: AUTHENTICATED, cookie })).status).toBe(400);
  });

  it("is for board callers only", async () => {
    expect((await get("/api/auth/profile", { env: AUTHENTICATED })).status).toBe(401);
    expect((await patch("/api/auth/profile", { name: "x" }, { env: AUTHENTICATED })).status).toBe(401);
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const key = await insertAgentKey(agent.id, company.id);
    expect((await get("/api/auth/profile", { token: key.token })).status).toBe(403);
    expect((await get("/api/auth/profile")).body.id).toBe("local-board");
  });
});

describe("GET /api/companies/{companyId}/users/{userSlug}/profile", () => {
  it("finds a member by slug or id", async () => {
    const company = await createCompany();
    const member = await boardUser(company.id, "admin");
    const slug = member.name.toLowerCase();
    const bySlug = await get(`/api/companies/${company.id}/users/${slug}/profile`);
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toMatchObject({
      user: { id: member.id, slug },
      membership: { membershipRole: "admin", status: "active" },
      stats: { activityCount: 0, assignedOpenIssueCount: 0 },
    });
    expect((await get(`/api/companies/${company.id}/users/${member.id}/profile`)).body.user.id).toBe(member.id);
  });

  it("404 for non-members, 403 for other companies, 401 without credentials", async () => {
    const company = await createCompany();
    const stranger = await boardUser();
    expect((await get(`/api/companies/${company.id}/users/${stranger.id}/profile`)).status).toBe(404);
    const outsider = await boardUser();
    expect((await get(`/api/companies/${company.id}/users/local-board/profile`, { token: outsider.token })).status).toBe(403);
    expect((await get(`/api/companies/${company.id}/users/local-board/profile`, { token: "svc_agent_bogus" })).status).toBe(401);
    expect((await get(`/api/companies/${crypto.randomUUID()}/users/local-board/profile`)).status).toBe(404);
  });
});

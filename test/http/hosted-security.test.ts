// Hosted (authenticated) mode: cookie-authenticated changes must come from the service's own origin
// (or a trusted one), and sign-in, sign-up and CLI login attempts are limited per account and per
// client address by Durable Objects (429 + Retry-After).
import { describe, expect, it } from "vitest";
import { AUTHENTICATED, get, post, del, unique, type EnvOverrides } from "../helpers/api";
import { boardUser, randomAddress, signUp } from "../helpers/fixtures";
import { trustedOrigins } from "../../src/http/origin-check";

const PASSWORD = "correct horse battery";

async function companyOf(cookie: string) {
  const res = await post("/api/companies", { name: unique("Hosted") }, { env: AUTHENTICATED, cookie });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

const issuesOf = async (companyId: string, cookie: string) => (await get(`/api/companies/${companyId}/issues`, { env: AUTHENTICATED, cookie })).body as any[];

describe("cross-site requests with the session cookie", () => {
  it("an unsafe request from another origin (Origin, else Referer, else neither) is 403 and changes nothing; the own origin works", async () => {
    const { cookie } = await signUp();
    const company = await companyOf(cookie);
    const path = `/api/companies/${company.id}/issues`;
    const body = { title: "from evil" };

    const evil = await post(path, body, { env: AUTHENTICATED, cookie, headers: { origin: "https://evil.example" } });
    expect(evil.status).toBe(403);
    expect(evil.body.error).toMatch(/Cross-site/);
    const evilReferer = await post(path, body, { env: AUTHENTICATED, cookie, headers: { referer: "https://evil.example/page" } });
    expect(evilReferer.status).toBe(403);
    // A same-site subdomain is another origin.
    expect((await post(path, body, { env: AUTHENTICATED, cookie, headers: { origin: "http://evil.localhost" } })).status).toBe(403);
    // Neither header: a browser always sends one on a cross-site POST; refuse rather than guess.
    expect((await post(path, body, { env: AUTHENTICATED, cookie, headers: { "x-no-origin": "1", referer: "not a url" } })).status).toBe(403);
    expect((await del(`/api/companies/${company.id}`, { env: AUTHENTICATED, cookie, headers: { origin: "https://evil.example" } })).status).toBe(403);
    expect(await issuesOf(company.id, cookie)).toEqual([]);

    // Reads are not changes.
    expect((await get(path, { env: AUTHENTICATED, cookie, headers: { origin: "https://evil.example" } })).status).toBe(200);
    // The service's own origin, by Origin or by Referer.
    expect((await post(path, { title: "own" }, { env: AUTHENTICATED, cookie, headers: { origin: "http://localhost" } })).status).toBe(201);
    expect((await post(path, { title: "own page" }, { env: AUTHENTICATED, cookie, headers: { referer: "http://localhost/companies/x" } })).status).toBe(201);
    expect((await issuesOf(company.id, cookie)).map((i) => i.title).sort()).toEqual(["own", "own page"]);
  });

  it("AUTH_TRUSTED_ORIGINS and the public base URL are trusted; bearer keys are unaffected by Origin", async () => {
    const trusted: EnvOverrides = { ...AUTHENTICATED, AUTH_TRUSTED_ORIGINS: "https://console.example.com, https://ops.example.com/" };
    const { cookie, userId } = await signUp();
    const company = await companyOf(cookie);
    const path = `/api/companies/${company.id}/issues`;
    expect((await post(path, { title: "console" }, { env: trusted, cookie, headers: { origin: "https://console.example.com" } })).status).toBe(201);
    expect((await post(path, { title: "ops" }, { env: trusted, cookie, headers: { origin: "https://ops.example.com" } })).status).toBe(201);
    expect((await post(path, { title: "x" }, { env: trusted, cookie, headers: { origin: "https://console.example.com.evil.example" } })).status).toBe(403);
    // The public base URL (explicit mode) is the service's own origin too.
    const config = { mode: "authenticated", exposure: "public", baseUrlMode: "explicit", publicBaseUrl: "https://cp.example.com/app" } as const;
    expect(trustedOrigins({ AUTH_TRUSTED_ORIGINS: "https://a.example, nonsense" }, config, "https://worker.example.workers.dev/api/x")).toEqual([
      "https://worker.example.workers.dev",
      "https://cp.example.com",
      "https://a.example",
    ]);

    // A board API key carries its credential explicitly: no Origin rule.
    const board = await boardUser(company.id);
    const keyed = await post(path, { title: "keyed" }, { env: AUTHENTICATED, token: board.token, headers: { origin: "https://evil.example" } });
    expect(keyed.status).toBe(201);
    expect((await issuesOf(company.id, cookie)).map((i) => i.title).sort()).toEqual(["console", "keyed", "ops"]);
    expect(userId).toBeTruthy();
  });
});

async function signIn(email: string, password: string, address: string) {
  return post("/api/auth/sign-in/email", { email, password }, { env: AUTHENTICATED, headers: { "cf-connecting-ip": address, origin: "http://localhost" } });
}

describe("attempt limits (10 per 15 minutes by default)", () => {
  it("30 concurrent wrong passwords for one account: 10 are tried, the rest 429 with Retry-After; the right password from elsewhere then waits too (the account's own limit)", async () => {
    const { email } = await signUp();
    const attacker = randomAddress();
    const tries = await Promise.all(Array.from({ length: 30 }, () => signIn(email, "wrong password!", attacker)));
    const limited = tries.filter((t) => t.status === 429);
    expect(tries.filter((t) => t.status !== 429).every((t) => t.status >= 400 && t.status < 500)).toBe(true);
    expect(limited).toHaveLength(20);
    for (const t of limited) {
      const retryAfter = Number(t.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(t.body.error).toMatch(/Too many attempts/);
    }
    // The attacker's address is limited for every account; the account is limited from every address.
    const other = await signUp();
    expect((await signIn(other.email, PASSWORD, attacker)).status).toBe(429);
    expect((await signIn(email, PASSWORD, randomAddress())).status).toBe(429);
    // Another account from another address is not slowed at all.
    expect((await signIn(other.email, PASSWORD, randomAddress())).status).toBe(200);
  });

  it("failures under the limit do not delay a successful sign-in from another address; successes never count", async () => {
    const { email } = await signUp();
    const attacker = randomAddress();
    for (let i = 0; i < 5; i++) expect((await signIn(email, "wrong password!", attacker)).status).not.toBe(429);
    const home = randomAddress();
    for (let i = 0; i < 12; i++) expect((await signIn(email, PASSWORD, home)).status).toBe(200);
    // The five failures still count for the account: five more are allowed, then 429.
    const more = [];
    for (let i = 0; i < 6; i++) more.push((await signIn(email, "wrong password!", randomAddress())).status);
    expect(more.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(more[5]).toBe(429);
  });

  it("sign-ups and CLI challenges per address: the 11th in the window is 429; another address is not affected", async () => {
    const address = randomAddress();
    const signUps = [];
    for (let i = 0; i < 11; i++) {
      const email = `${unique("limit")}@example.com`;
      signUps.push(
        (await post("/api/auth/sign-up/email", { email, password: PASSWORD, name: "L" }, { env: AUTHENTICATED, headers: { "cf-connecting-ip": address } }))
          .status,
      );
    }
    expect(signUps.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(signUps[10]).toBe(429);

    const challenges = [];
    for (let i = 0; i < 11; i++)
      challenges.push((await post("/api/cli-auth/challenges", {}, { env: AUTHENTICATED, headers: { "cf-connecting-ip": address } })).status);
    expect(challenges.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(challenges[10]).toBe(429);
    expect((await post("/api/cli-auth/challenges", {}, { env: AUTHENTICATED, headers: { "cf-connecting-ip": randomAddress() } })).status).toBe(201);
  });

  it("CLI approval: wrong user codes count per user; the 11th attempt is 429 even with the right code; the challenge stays pending", async () => {
    const { cookie } = await signUp();
    const address = randomAddress();
    const challenge = (await post("/api/cli-auth/challenges", {}, { env: AUTHENTICATED, headers: { "cf-connecting-ip": randomAddress() } })).body;
    const approve = (userCode: string, from = address) =>
      post(
        `/api/cli-auth/challenges/${challenge.id}/approve`,
        { userCode },
        { env: AUTHENTICATED, cookie, headers: { "cf-connecting-ip": from, origin: "http://localhost" } },
      );
    for (let i = 0; i < 10; i++) expect((await approve("WRONG-CODE")).status).not.toBe(429);
    const blocked = await approve(challenge.userCode, randomAddress());
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    const polled = await get(`/api/cli-auth/challenges/${challenge.id}`, { env: AUTHENTICATED, headers: { "x-challenge-secret": challenge.pollSecret } });
    expect(polled.body.status).toBe("pending");
  });

  it("local_trusted mode has no sign-in and no limits on CLI challenges", async () => {
    for (let i = 0; i < 12; i++) expect((await post("/api/cli-auth/challenges", {})).status).toBe(201);
  });
});

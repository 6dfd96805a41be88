// First-admin bootstrap claim: only authenticated + private, needs a browser session, first caller wins.
import { describe, expect, it } from "vitest";
import { AUTHENTICATED, get, post } from "../helpers/api";
import { insertBoardKey, signUp } from "../helpers/fixtures";

describe("POST /api/bootstrap/claim", () => {
  it("does not exist outside authenticated + private", async () => {
    expect((await post("/api/bootstrap/claim")).status).toBe(404);
    const publicEnv = {
      DEPLOYMENT_MODE: "authenticated",
      SERVER_EXPOSURE: "public",
      AUTH_BASE_URL_MODE: "explicit",
      AUTH_PUBLIC_BASE_URL: "https://cp.example.com",
    };
    expect((await post("/api/bootstrap/claim", undefined, { env: publicEnv })).status).toBe(404);
  });

  it("needs a signed-in browser session; the first claim wins and later ones get 409", async () => {
    expect((await post("/api/bootstrap/claim", undefined, { env: AUTHENTICATED })).status).toBe(401);

    const first = await signUp();
    const key = await insertBoardKey(first.userId);
    // A board API key is not a browser session.
    expect((await post("/api/bootstrap/claim", undefined, { env: AUTHENTICATED, token: key.token })).status).toBe(401);

    expect((await get("/api/health", { env: AUTHENTICATED })).body.bootstrap).toEqual({
      status: "unclaimed",
      claimPath: "/api/bootstrap/claim",
    });
    const claimed = await post("/api/bootstrap/claim", undefined, { env: AUTHENTICATED, cookie: first.cookie });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toEqual({ claimed: true, userId: first.userId });
    expect((await get("/api/health", { env: AUTHENTICATED })).body.bootstrap.status).toBe("claimed");

    const me = await get("/api/cli-auth/me", { env: AUTHENTICATED, cookie: first.cookie });
    expect(me.body.isInstanceAdmin).toBe(true);

    const second = await signUp();
    const late = await post("/api/bootstrap/claim", undefined, { env: AUTHENTICATED, cookie: second.cookie });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/already been claimed/);
    const again = await post("/api/bootstrap/claim", undefined, { env: AUTHENTICATED, cookie: first.cookie });
    expect(again.status).toBe(409);
  });
});

// better-auth's own errors come back in the service's { error, details? } shape.
import { describe, expect, it } from "vitest";
import { AUTHENTICATED, call, post, unique } from "../helpers/api";

describe("/api/auth/* errors", () => {
  it("malformed JSON on sign-up and sign-in is a 4xx { error } with better-auth's code in details", async () => {
    for (const path of ["/api/auth/sign-up/email", "/api/auth/sign-in/email"]) {
      const res = await call("POST", path, { rawBody: "{not json", headers: { "content-type": "application/json" }, env: AUTHENTICATED });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body).toEqual({ error: "Invalid JSON in request body", details: { code: "BAD_REQUEST" } });
    }
  });

  it("a wrong password keeps better-auth's code under details", async () => {
    const email = `${unique("x")}@example.com`;
    const res = await post("/api/auth/sign-in/email", { email, password: "not the password" }, { env: AUTHENTICATED });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/invalid/i);
    expect(res.body.details.code).toBeTruthy();
  });
});

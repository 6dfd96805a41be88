// Authenticate before validating: every operation that is not public (`security: []`, or only the
// route's own `webhookSecret` credential) answers an
// unknown bearer token 401 whatever its path, query and body look like; public ones never 5xx.
import { describe, expect, it } from "vitest";
import { call, get } from "../helpers/api";

const UNKNOWN = "svc_board_not-a-real-key-0000000000000000000000";

describe("authentication comes before validation", () => {
  it("every non-public route answers an unknown bearer 401 before reading garbage input", async () => {
    const doc = (await get("/api/openapi.json")).body;
    const failures: string[] = [];
    let checked = 0;
    for (const [template, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        // Public: no security, or only a route's own credential (a webhook trigger's secret, not an API key).
        const isPublic =
          Array.isArray(op.security) && op.security.every((entry: Record<string, unknown>) => Object.keys(entry).every((name) => name === "webhookSecret"));
        const path = template.replace(/\{[^}]+\}/g, "%%%not-an-id") + "?limit=-5&status=nonsense";
        const res = await call(method.toUpperCase(), path, {
          token: UNKNOWN,
          rawBody: method === "get" ? undefined : "{ not json",
          headers: method === "get" ? {} : { "content-type": "application/json" },
        });
        checked++;
        if (res.status >= 500) failures.push(`${method.toUpperCase()} ${template} -> ${res.status}`);
        else if (!isPublic && res.status !== 401) failures.push(`${method.toUpperCase()} ${template} -> ${res.status} ${res.text.slice(0, 120)}`);
        else if (res.status >= 400) expect(typeof res.body?.error, `${method} ${template}`).toBe("string");
      }
    }
    expect(checked).toBeGreaterThan(150);
    expect(failures).toEqual([]);
  });

  it("a typed body with the wrong shape from an unknown caller is 401, not 400", async () => {
    const res = await call("PATCH", "/api/companies/00000000-0000-4000-8000-000000000000", { token: UNKNOWN, body: { name: 42 } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Authentication required" });
  });
});

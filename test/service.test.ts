import { describe, expect, it } from "vitest";
import { call, get, post } from "./helpers/api";

describe("service", () => {
  it("reports health without auth", async () => {
    const res = await get("/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "ok",
      deploymentMode: "local_trusted",
      exposure: "private",
      database: "ok",
      bootstrap: { status: "not_applicable" },
      auth: { ready: true },
    });
    expect(res.body.features).toBeTypeOf("object");
  });
});

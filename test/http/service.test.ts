import { describe, expect, it } from "vitest";
import { AUTHENTICATED, call, get, post } from "../helpers/api";

const brokenDb: Record<string, (...args: any[]) => any> = {
  prepare() {
    throw new Error("D1 is down");
  },
  batch() {
    throw new Error("D1 is down");
  },
  exec() {
    throw new Error("D1 is down");
  },
  // Sessions open lazily (as D1's do); their queries fail like the binding's.
  withSession() {
    return { prepare: brokenDb.prepare, batch: brokenDb.batch, getBookmark: () => null };
  },
};

describe("health", () => {
  it("reports status, mode, exposure, auth readiness, bootstrap state and features without auth", async () => {
    const res = await get("/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "ok",
      deploymentMode: "local_trusted",
      exposure: "private",
      database: "ok",
      bootstrap: { status: "not_applicable", claimPath: null },
      auth: { ready: true, agentJwt: true, problems: [] },
    });
    expect(res.body.features.cliAuth).toBe(true);
  });

  it("shows an unclaimed bootstrap in authenticated private mode", async () => {
    const res = await get("/api/health", { env: AUTHENTICATED });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deploymentMode: "authenticated", auth: { sessionAuth: true, ready: true } });
    expect(["unclaimed", "claimed"]).toContain(res.body.bootstrap.status);
  });

  it("answers 503 with a JSON body when D1 cannot be queried", async () => {
    const res = await get("/api/health", { env: { DB: brokenDb } });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: "unavailable", database: "unreachable", error: "Database unreachable" });
  });

  it("reports missing secrets as auth problems", async () => {
    const res = await get("/api/health", { env: { ...AUTHENTICATED, BETTER_AUTH_SECRET: "", AGENT_JWT_SECRET: "" } });
    expect(res.status).toBe(200);
    expect(res.body.auth.ready).toBe(false);
    expect(res.body.auth.problems.join(" ")).toMatch(/BETTER_AUTH_SECRET/);
    expect(res.body.auth.problems.join(" ")).toMatch(/AGENT_JWT_SECRET/);
  });
});

describe("deployment configuration", () => {
  it("refuses to serve local_trusted with public exposure, saying why", async () => {
    const res = await get("/api/companies", { env: { DEPLOYMENT_MODE: "local_trusted", SERVER_EXPOSURE: "public" } });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatch(/local_trusted.*private/);
  });

  it("requires an explicit public base URL for public exposure", async () => {
    const res = await get("/api/health", { env: { DEPLOYMENT_MODE: "authenticated", SERVER_EXPOSURE: "public" } });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatch(/AUTH_PUBLIC_BASE_URL/);
    const ok = await get("/api/health", {
      env: {
        DEPLOYMENT_MODE: "authenticated",
        SERVER_EXPOSURE: "public",
        AUTH_BASE_URL_MODE: "explicit",
        AUTH_PUBLIC_BASE_URL: "https://cp.example.com",
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.exposure).toBe("public");
    expect(ok.body.bootstrap.status).toBe("not_applicable");
  });

  it("rejects an unknown deployment mode", async () => {
    const res = await get("/api/health", { env: { DEPLOYMENT_MODE: "open" } });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatch(/DEPLOYMENT_MODE/);
  });
});

describe("OpenAPI document and reference page", () => {
  it("describes the routes with request and response schemas (OpenAPI 3.1)", async () => {
    const res = await get("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    const create = res.body.paths["/api/companies"].post;
    expect(create.requestBody.content["application/json"].schema).toBeDefined();
    expect(create.responses["201"].content["application/json"].schema).toBeDefined();
    for (const path of ["/api/health", "/api/openapi.json", "/api/bootstrap/claim", "/api/cli-auth/challenges", "/api/auth/get-session"]) {
      expect(res.body.paths[path], path).toBeDefined();
    }
  });

  it("serves a human-readable reference at /api/docs", async () => {
    const res = await get("/api/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(res.text).toContain("/api/openapi.json");
  });
});

describe("request errors", () => {
  it("unknown routes are 404 JSON", async () => {
    const res = await get("/api/nope/nothing");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Route not found: GET /api/nope/nothing" });
  });

  it("malformed JSON is 400 in the error shape", async () => {
    const res = await call("POST", "/api/companies", { rawBody: "{not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/JSON/i);
  });

  it("a wrong content type is 400", async () => {
    const res = await call("POST", "/api/companies", { rawBody: "name=x", headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/Content-Type/);
  });

  it("a missing body is 400 and names the missing field", async () => {
    const res = await call("POST", "/api/companies");
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/name/);
    expect(Array.isArray(res.body.details)).toBe(true);
  });

  it("an oversized body is 413 with a clear message", async () => {
    const res = await post("/api/companies", { name: "Big", description: "x".repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/too large/);
  });
});

describe("OpenAPI operation ids", () => {
  it("every operation has an operationId, unique in the document", async () => {
    const doc = (await get("/api/openapi.json")).body;
    const ids: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
        ids.push(op.operationId);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    // Readable names (derived from method and path where a route does not name one).
    for (const id of [
      "wakeAgent",
      "listIssues",
      "createIssue",
      "getIssue",
      "updateIssue",
      "checkoutIssue",
      "releaseIssue",
      "listIssueComments",
      "createIssueComment",
      "listApprovals",
      "approveApproval",
      "rejectApproval",
      "listCompanies",
      "getCostSummary",
      "listHeartbeatRuns",
    ]) {
      expect(ids, id).toContain(id);
    }
    expect(ids.filter((id) => /By[A-Z][a-z]+Id/.test(id))).toEqual([]);
  });

  it("request fields with server defaults are optional: an issue create needs only its title", async () => {
    const doc = (await get("/api/openapi.json")).body;
    const ref = doc.paths["/api/companies/{companyId}/issues"].post.requestBody.content["application/json"].schema;
    const schema = ref.$ref ? doc.components.schemas[ref.$ref.split("/").pop()] : ref;
    expect(schema.required).toEqual(["title"]);
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        let body = op.requestBody?.content?.["application/json"]?.schema;
        if (body?.$ref) body = doc.components.schemas[body.$ref.split("/").pop()];
        for (const field of body?.required ?? [])
          expect(body.properties?.[field]?.default, `${method} ${path} ${field} has a default but is required`).toBeUndefined();
        for (const param of op.parameters ?? [])
          if (param.schema?.default !== undefined) expect(param.required ?? false, `${method} ${path} ?${param.name}`).toBe(false);
      }
    }
  });
});

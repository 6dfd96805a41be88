// The typed client against the real dev server: the types generated from the live document equal
// the committed src/client/generated/schema.d.ts; a sample program type-checks against them (and a broken one
// does not, so the check has teeth); and the client works at runtime.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { devBase } from "./dev-server";
// @ts-expect-error plain JavaScript tool module
import { generateTypes, normalizeDocument } from "../tools/client-types.mjs";
import { createClient } from "../../src/client";

let base = "";
const root = path.resolve(import.meta.dirname, "../..");

const SAMPLE = `
import createClient from "openapi-fetch";
import type { paths } from "./schema";

const api = createClient<paths>({ baseUrl: "http://127.0.0.1:8787" });

export async function daily(companyId: string, agentId: string) {
  const created = await api.POST("/api/companies/{companyId}/issues", { params: { path: { companyId } }, body: { title: "Only a title" } });
  if (!created.data) return created.error.error;
  const id: string = created.data.id;
  const listed = await api.GET("/api/companies/{companyId}/issues", { params: { path: { companyId } } });
  const titles: string[] = (listed.data ?? []).map((issue) => issue.title);
  await api.POST("/api/issues/{issueId}/checkout", { params: { path: { issueId: id } }, body: { agentId, expectedStatuses: ["todo"] } });
  await api.POST("/api/issues/{issueId}/comments", { params: { path: { issueId: id } }, body: { body: "hello" } });
  return titles;
}
`;

const BROKEN = `
import createClient from "openapi-fetch";
import type { paths } from "./schema";
const api = createClient<paths>({ baseUrl: "http://127.0.0.1:8787" });
export const missingTitle = () => api.POST("/api/companies/{companyId}/issues", { params: { path: { companyId: "c" } }, body: { description: "no title" } });
export const unknownPath = () => api.GET("/api/no-such-route", {});
`;

function typeErrors(dir: string, file: string): string[] {
  const program = ts.createProgram([path.join(dir, file)], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    paths: { "openapi-fetch": [path.join(root, "node_modules/openapi-fetch")] },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("typed client (generated from the live document)", () => {
  beforeAll(async () => {
    base = await devBase();
  }, 120_000);

  it("the committed types are fresh, a sample program type-checks, a broken one does not", async () => {
    const document = normalizeDocument(await (await fetch(`${base}/api/openapi.json`)).json());
    const types = await generateTypes(document);
    expect(types, "src/client/generated/schema.d.ts is stale: run npm run client:generate").toBe(
      readFileSync(path.join(root, "src/client/generated/schema.d.ts"), "utf8"),
    );
    const dir = mkdtempSync(path.join(root, "node_modules/.acp-typed-client-"));
    writeFileSync(path.join(dir, "schema.d.ts"), types);
    writeFileSync(path.join(dir, "sample.ts"), SAMPLE);
    writeFileSync(path.join(dir, "broken.ts"), BROKEN);
    let broken: string[];
    try {
      expect(typeErrors(dir, "sample.ts")).toEqual([]);
      broken = typeErrors(dir, "broken.ts");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(broken.some((m) => m.includes("title"))).toBe(true);
    expect(broken.some((m) => m.includes("/api/no-such-route"))).toBe(true);
  });

  it("works at runtime: create a company and an issue, read them back, errors carry the API's message", async () => {
    const api = createClient({ baseUrl: base });
    const company = await api.POST("/api/companies", { body: { name: `Typed Client ${Date.now()}` } });
    expect(company.response.status).toBe(201);
    const companyId = company.data!.id;
    const issue = await api.POST("/api/companies/{companyId}/issues", { params: { path: { companyId } }, body: { title: "Typed" } });
    expect(issue.data).toMatchObject({ title: "Typed", companyId });
    const listed = await api.GET("/api/companies/{companyId}/issues", { params: { path: { companyId } } });
    expect(listed.data!.map((i) => i.id)).toContain(issue.data!.id);
    const missing = await api.GET("/api/issues/{issueId}", { params: { path: { issueId: "00000000-0000-0000-0000-000000000000" } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.error).toBeTruthy();
  });
});

// Issue attachments through HTTP: multipart upload to R2, list, content (inline/download,
// Range, ETag), delete; plus work products.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { call, del, get, post } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey } from "../helpers/fixtures";
import { insertIssue } from "../helpers/fixtures";
import { parseRange, contentDisposition } from "../../src/domain/attachments/serve";

const BOGUS = { token: "svc_agent_bogus" };

async function setup() {
  const company = await createCompany();
  const issue = await insertIssue(company.id);
  const agent = await insertAgent(company.id);
  const { token: agentToken } = await insertAgentKey(agent.id, company.id);
  return { company, issue, agent, agentToken };
}

function form(content: BlobPart, filename = "notes.txt", type = "text/plain") {
  const f = new FormData();
  f.append("file", new File([content], filename, { type }));
  return f;
}

const uploadPath = (companyId: string, issueId: string) => `/api/companies/${companyId}/issues/${issueId}/attachments`;
const upload = (companyId: string, issueId: string, body: FormData, token?: string) => call("POST", uploadPath(companyId, issueId), { rawBody: body, token });

async function sha256(bytes: Uint8Array) {
  const d = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("attachment upload", () => {
  it("stores bytes in R2 and records type, size, SHA-256, filename and uploader", async () => {
    const { company, issue } = await setup();
    const bytes = new TextEncoder().encode("hello attachment");
    const res = await upload(company.id, issue.id, form(bytes, "hello.txt", "text/plain"));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      issueId: issue.id,
      companyId: company.id,
      contentType: "text/plain",
      byteSize: bytes.byteLength,
      sha256: await sha256(bytes),
      originalFilename: "hello.txt",
      createdByAgentId: null,
      contentPath: `/api/attachments/${res.body.id}/content`,
    });
    expect(res.body.createdByUserId).toEqual(expect.any(String));
    const object = await env.FILES.head(`companies/${company.id}/attachments/${res.body.id}`);
    expect(object?.size).toBe(bytes.byteLength);

    const listed = await get(`/api/issues/${issue.identifier}/attachments`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((a: any) => a.id)).toEqual([res.body.id]);
    const activity = await get(`/api/companies/${company.id}/activity?entityId=${issue.id}`);
    expect(activity.body.map((a: any) => a.action)).toContain("issue.attachment_added");
  });

  it("records the uploading agent and accepts the issue identifier", async () => {
    const { company, issue, agent, agentToken } = await setup();
    const res = await upload(company.id, issue.identifier, form("x", "a.bin", "application/octet-stream"), agentToken);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ createdByAgentId: agent.id, createdByUserId: null, contentType: "application/octet-stream" });
  });

  it("rejects bad input with 400 and guards access", async () => {
    const { company, issue } = await setup();
    const noFile = new FormData();
    noFile.append("other", "value");
    expect((await upload(company.id, issue.id, noFile)).status).toBe(400);
    const stringPart = new FormData();
    stringPart.append("file", "not a file");
    expect((await upload(company.id, issue.id, stringPart)).status).toBe(400);
    const json = await post(uploadPath(company.id, issue.id), { file: "x" });
    expect(json.status).toBe(400);
    expect(json.body.error).toMatch(/multipart/);

    expect((await upload(company.id, issue.id, form("x"), BOGUS.token)).status).toBe(401);
    const other = await setup();
    expect((await upload(company.id, issue.id, form("x"), other.agentToken)).status).toBe(403);
    const outsider = await boardUser(other.company.id);
    expect((await upload(company.id, issue.id, form("x"), outsider.token)).status).toBe(403);
    expect((await upload(crypto.randomUUID(), issue.id, form("x"))).status).toBe(404);
    // An issue of another company under this company's path is missing.
    expect((await upload(company.id, other.issue.id, form("x"))).status).toBe(404);
    expect((await upload(company.id, crypto.randomUUID(), form("x"))).status).toBe(404);
    expect((await get(`/api/issues/${issue.id}/attachments`, BOGUS)).status).toBe(401);
    expect((await get(`/api/issues/${issue.id}/attachments`, { token: other.agentToken })).status).toBe(404);
    expect((await get(`/api/issues/${crypto.randomUUID()}/attachments`)).status).toBe(404);
  });

  it("enforces the 25 MiB limit with 413", async () => {
    const { company, issue } = await setup();
    const limit = 25 * 1024 * 1024;
    const atLimit = await upload(company.id, issue.id, form(new Uint8Array(limit), "max.bin", "application/octet-stream"));
    expect(atLimit.status).toBe(201);
    expect(atLimit.body.byteSize).toBe(limit);
    const over = await upload(company.id, issue.id, form(new Uint8Array(limit + 1), "over.bin", "application/octet-stream"));
    expect(over.status).toBe(413);
    expect(over.body.error).toMatch(/25 MiB|limit/);
    const wayOver = await upload(company.id, issue.id, form(new Uint8Array(limit + 2 * 1024 * 1024), "big.bin"));
    expect(wayOver.status).toBe(413);
  });
});

describe("attachment content", () => {
  async function withFile(content: BlobPart = "0123456789", filename = "digits.txt", type = "text/plain") {
    const ctx = await setup();
    const res = await upload(ctx.company.id, ctx.issue.id, form(content, filename, type));
    expect(res.status).toBe(201);
    return { ...ctx, attachment: res.body };
  }

  it("serves inline with ETag, nosniff and Accept-Ranges; download=1 forces attachment", async () => {
    const { attachment } = await withFile();
    const res = await get(attachment.contentPath);
    expect(res.status).toBe(200);
    expect(res.text).toBe("0123456789");
    expect(res.headers.get("etag")).toBe(`"${attachment.sha256}"`);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-type")).toBe("text/plain");
    expect(res.headers.get("content-disposition")).toMatch(/^inline; filename="digits.txt"/);
    const dl = await get(`${attachment.contentPath}?download=1`);
    expect(dl.headers.get("content-disposition")).toMatch(/^attachment; filename="digits.txt"/);
    expect((await get(`${attachment.contentPath}?download=maybe`)).status).toBe(400);

    const cached = await get(attachment.contentPath, { headers: { "if-none-match": `"${attachment.sha256}"` } });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe("");
    const changed = await get(attachment.contentPath, { headers: { "if-none-match": '"other"' } });
    expect(changed.status).toBe(200);
  });

  it("answers single ranges with 206 and the exact bytes", async () => {
    const { attachment } = await withFile();
    const cases: Array<[string, string, string]> = [
      ["bytes=2-5", "2345", "bytes 2-5/10"],
      ["bytes=7-", "789", "bytes 7-9/10"],
      ["bytes=-3", "789", "bytes 7-9/10"],
      ["bytes=8-100", "89", "bytes 8-9/10"],
      ["bytes=0-0", "0", "bytes 0-0/10"],
      ["bytes=-100", "0123456789", "bytes 0-9/10"],
    ];
    for (const [range, body, contentRange] of cases) {
      const res = await get(attachment.contentPath, { headers: { range } });
      expect(res.status, range).toBe(206);
      expect(res.text, range).toBe(body);
      expect(res.headers.get("content-range"), range).toBe(contentRange);
      expect(res.headers.get("content-length"), range).toBe(String(body.length));
    }
  });

  it("gives 416 for unsatisfiable ranges and the whole body for multiple ranges", async () => {
    const { attachment } = await withFile();
    for (const range of ["bytes=10-", "bytes=50-60", "bytes=-0"]) {
      const res = await get(attachment.contentPath, { headers: { range } });
      expect(res.status, range).toBe(416);
      expect(res.headers.get("content-range"), range).toBe("bytes */10");
    }
    const multi = await get(attachment.contentPath, { headers: { range: "bytes=0-1,4-5" } });
    expect(multi.status).toBe(200);
    expect(multi.text).toBe("0123456789");
    const malformed = await get(attachment.contentPath, { headers: { range: "items=0-1" } });
    expect(malformed.status).toBe(200);
  });

  it("serves binary ranges byte-exactly", async () => {
    const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7) % 256);
    const { attachment } = await withFile(bytes, "data.bin", "application/octet-stream");
    const request = new Request(`http://localhost${attachment.contentPath}`, { headers: { range: "bytes=1000-2047" } });
    const { exports } = await import("cloudflare:workers");
    const res = await exports.default.fetch(request);
    expect(res.status).toBe(206);
    const got = new Uint8Array(await res.arrayBuffer());
    expect(got).toEqual(bytes.slice(1000, 2048));
  });

  it("checks company access and keeps active content from running", async () => {
    const { attachment } = await withFile("<script>alert(1)</script>", 'evil "name";.html', "text/html");
    const res = await get(attachment.contentPath);
    expect(res.headers.get("content-security-policy")).toMatch(/sandbox/);
    expect(res.headers.get("content-disposition")).not.toMatch(/"evil "name/);
    expect((await get(attachment.contentPath, BOGUS)).status).toBe(401);
    const other = await setup();
    expect((await get(attachment.contentPath, { token: other.agentToken })).status).toBe(404);
    expect((await get(`/api/attachments/${crypto.randomUUID()}/content`)).status).toBe(404);
  });
});

describe("attachment delete", () => {
  it("lets the board and the uploading agent delete; other agents get 403", async () => {
    const { company, issue, agentToken } = await setup();
    const otherAgent = await insertAgent(company.id);
    const { token: otherToken } = await insertAgentKey(otherAgent.id, company.id);
    const byAgent = (await upload(company.id, issue.id, form("a"), agentToken)).body;
    const byBoard = (await upload(company.id, issue.id, form("b"))).body;

    expect((await del(`/api/attachments/${byAgent.id}`, { token: otherToken })).status).toBe(403);
    expect((await del(`/api/attachments/${byBoard.id}`, { token: agentToken })).status).toBe(403);
    expect((await del(`/api/attachments/${byAgent.id}`, BOGUS)).status).toBe(401);
    const other = await setup();
    expect((await del(`/api/attachments/${byAgent.id}`, { token: other.agentToken })).status).toBe(404);

    const ok = await del(`/api/attachments/${byAgent.id}`, { token: agentToken });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ deleted: true, id: byAgent.id });
    expect(await env.FILES.head(`companies/${company.id}/attachments/${byAgent.id}`)).toBeNull();
    expect((await get(byAgent.contentPath)).status).toBe(404);
    expect((await del(`/api/attachments/${byBoard.id}`)).status).toBe(200);
    expect((await del(`/api/attachments/${byBoard.id}`)).status).toBe(404);
    expect((await get(`/api/issues/${issue.id}/attachments`)).body).toEqual([]);
    const activity = await get(`/api/companies/${company.id}/activity?entityId=${issue.id}`);
    expect(activity.body.map((a: any) => a.action)).toContain("issue.attachment_deleted");
  });
});

describe("work products", () => {
  it("records and lists work products of an issue", async () => {
    const { issue, agent, agentToken } = await setup();
    const created = await post(
      `/api/issues/${issue.id}/work-products`,
      { kind: "pull_request", title: "PR #12", url: "https://example.com/pr/12", previewText: "Adds the thing" },
      { token: agentToken },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: "pull_request", title: "PR #12", createdByAgentId: agent.id, contentType: null });
    const list = await get(`/api/issues/${issue.identifier}/work-products`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect((await post(`/api/issues/${issue.id}/work-products`, { kind: "Bad Kind", title: "x" })).status).toBe(400);
    expect((await post(`/api/issues/${issue.id}/work-products`, { kind: "link", title: "x", url: "javascript:alert(1)" })).status).toBe(400);
    expect((await post(`/api/issues/${issue.id}/work-products`, { kind: "link" })).status).toBe(400);
    expect((await post(`/api/issues/${issue.id}/work-products`, { kind: "link", title: "x" }, BOGUS)).status).toBe(401);
    const other = await setup();
    expect((await post(`/api/issues/${issue.id}/work-products`, { kind: "link", title: "x" }, { token: other.agentToken })).status).toBe(404);
    expect((await get(`/api/issues/${issue.id}/work-products`, { token: other.agentToken })).status).toBe(404);
    expect((await get(`/api/issues/${crypto.randomUUID()}/work-products`)).status).toBe(404);
  });
});

describe("range and disposition helpers", () => {
  it("parses ranges", () => {
    expect(parseRange(null, 10)).toBeNull();
    expect(parseRange("bytes=0-4", 10)).toEqual({ offset: 0, length: 5 });
    expect(parseRange("bytes=9-2", 10)).toBeNull();
    expect(parseRange("bytes=0-", 0)).toBe("unsatisfiable");
    expect(parseRange("bytes=-", 10)).toBeNull();
  });
  it("builds safe Content-Disposition values", () => {
    expect(contentDisposition("inline", null)).toBe("inline");
    const value = contentDisposition("attachment", "résumé; x.pdf");
    expect(value).toMatch(/^attachment; filename="r_sum__ x.pdf"; filename\*=UTF-8''r%C3%A9sum%C3%A9%3B%20x.pdf$/);
  });
});

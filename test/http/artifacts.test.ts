// The company artifact projection through HTTP: fields, filters, keyset pagination
// (stable under inserts), grouping by task / parent task and group expansion.
import { describe, expect, it } from "vitest";
import { call, get, post, put } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey } from "../helpers/fixtures";
import { insertIssue, insertProject } from "../helpers/fixtures";

const BOGUS = { token: "svc_agent_bogus" };

function fileForm(content: BlobPart, filename: string, type: string) {
  const f = new FormData();
  f.append("file", new File([content], filename, { type }));
  return f;
}

async function attach(companyId: string, issueId: string, filename: string, type: string, token?: string) {
  const res = await call("POST", `/api/companies/${companyId}/issues/${issueId}/attachments`, { rawBody: fileForm("bytes", filename, type), token });
  expect(res.status).toBe(201);
  return res.body;
}

async function world() {
  const company = await createCompany();
  const project = await insertProject(company.id, "Website");
  const parent = await insertIssue(company.id, { title: "Launch website", projectId: project.id });
  const child = await insertIssue(company.id, { title: "Design hero", projectId: project.id, parentId: parent.id });
  const solo = await insertIssue(company.id, { title: "Research" });
  const hidden = await insertIssue(company.id, { title: "Hidden", hiddenAt: new Date().toISOString() });
  const agent = await insertAgent(company.id, { name: "Designer" });
  const { token } = await insertAgentKey(agent.id, company.id);

  const plan = await put(`/api/issues/${child.id}/documents/plan`, { title: "Hero plan", body: "# Hero\nMake it shine." }, { token });
  expect(plan.status).toBe(201);
  const image = await attach(company.id, child.id, "hero.png", "image/png", token);
  const notes = await attach(company.id, solo.id, "notes.txt", "text/plain");
  const video = await attach(company.id, solo.id, "demo.mp4", "video/mp4");
  const pdf = await attach(company.id, solo.id, "report.pdf", "application/pdf");
  const zip = await attach(company.id, solo.id, "bundle.zip", "application/zip");
  const wp = await post(
    `/api/issues/${parent.id}/work-products`,
    { kind: "preview_url", title: "Preview deploy", url: "https://preview.example.com", previewText: "Live preview" },
    { token },
  );
  expect(wp.status).toBe(201);
  await put(`/api/issues/${hidden.id}/documents/secret`, { body: "hidden" });
  return { company, project, parent, child, solo, hidden, agent, token, plan: plan.body, image, notes, video, pdf, zip, wp: wp.body };
}

const artifactsPath = (companyId: string, query = "") => `/api/companies/${companyId}/artifacts${query ? `?${query}` : ""}`;

function expectNewestFirst(items: Array<{ updatedAt: string; id: string }>) {
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1];
    const b = items[i];
    expect(a.updatedAt > b.updatedAt || (a.updatedAt === b.updatedAt && a.id > b.id)).toBe(true);
  }
}

describe("artifacts list", () => {
  it("projects documents, attachments and work products with every field", async () => {
    const w = await world();
    const res = await get(artifactsPath(w.company.id));
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    const items = res.body.artifacts as any[];
    expect(items).toHaveLength(7);
    expectNewestFirst(items);
    const byId = Object.fromEntries(items.map((a) => [a.id, a]));

    expect(byId[`document:${w.plan.id}`]).toEqual({
      id: `document:${w.plan.id}`,
      source: "document",
      mediaKind: "document",
      title: "Hero plan",
      previewText: "# Hero\nMake it shine.",
      contentType: "text/markdown",
      contentPath: `/api/issues/${w.child.id}/documents/plan`,
      openPath: `/api/issues/${w.child.id}/documents/plan`,
      downloadPath: null,
      issue: { id: w.child.id, identifier: w.child.identifier, title: "Design hero" },
      project: { id: w.project.id, name: "Website" },
      createdByAgent: { id: w.agent.id, name: "Designer" },
      updatedAt: w.plan.updatedAt,
      href: `/issues/${w.child.identifier}#document-plan`,
    });
    expect(byId[`attachment:${w.image.id}`]).toMatchObject({
      source: "attachment",
      mediaKind: "image",
      title: "hero.png",
      previewText: null,
      contentType: "image/png",
      contentPath: `/api/attachments/${w.image.id}/content`,
      downloadPath: `/api/attachments/${w.image.id}/content?download=1`,
      createdByAgent: { id: w.agent.id, name: "Designer" },
    });
    expect(byId[`attachment:${w.notes.id}`]).toMatchObject({ mediaKind: "text", project: null, createdByAgent: null });
    expect(byId[`attachment:${w.video.id}`].mediaKind).toBe("video");
    expect(byId[`attachment:${w.pdf.id}`].mediaKind).toBe("document");
    expect(byId[`attachment:${w.zip.id}`].mediaKind).toBe("file");
    expect(byId[`work_product:${w.wp.id}`]).toMatchObject({
      source: "work_product",
      mediaKind: "",
      title: "Preview deploy",
      previewText: "Live preview",
      contentType: null,
      contentPath: null,
      openPath: "https://preview.example.com",
      issue: { id: w.parent.id },
      href: `/issues/${w.parent.identifier}#work-product-${w.wp.id}`,
    });
  });

  it("filters by kind, project and q", async () => {
    const w = await world();
    const ids = async (query: string) => {
      const res = await get(artifactsPath(w.company.id, query));
      expect(res.status, query).toBe(200);
      return (res.body.artifacts as any[]).map((a) => a.id).sort();
    };
    expect(await ids("kind=image")).toEqual([`attachment:${w.image.id}`]);
    expect(await ids("kind=video")).toEqual([`attachment:${w.video.id}`]);
    expect(await ids("kind=text")).toEqual([`attachment:${w.notes.id}`]);
    expect(await ids("kind=document")).toEqual([`attachment:${w.pdf.id}`, `document:${w.plan.id}`].sort());
    expect(await ids("kind=file")).toEqual([`attachment:${w.zip.id}`]);
    expect(await ids("kind=all")).toHaveLength(7);
    expect(await ids(`projectId=${w.project.id}`)).toEqual([`attachment:${w.image.id}`, `document:${w.plan.id}`, `work_product:${w.wp.id}`].sort());
    expect(await ids("q=HERO")).toEqual([`attachment:${w.image.id}`, `document:${w.plan.id}`].sort());
    expect(await ids("q=shine")).toEqual([`document:${w.plan.id}`]);
    expect(await ids(`q=${w.solo.identifier}`)).toHaveLength(4);
    expect(await ids("q=%25")).toEqual([]);
    expect(await ids("q=no-such-thing")).toEqual([]);
  });

  it("rejects bad query parameters with 400", async () => {
    const company = await createCompany();
    for (const query of [
      "kind=audio",
      "limit=0",
      "limit=101",
      "limit=abc",
      `q=${"x".repeat(161)}`,
      "projectId=nope",
      "groupBy=week",
      "groupIssueId=nope",
      "cursor=%%%",
    ]) {
      const res = await get(artifactsPath(company.id, query));
      expect(res.status, query).toBe(400);
    }
    expect((await get(artifactsPath(company.id, `q=${"x".repeat(160)}`))).status).toBe(200);
    expect((await get(artifactsPath(company.id, "cursor=bm9wZQ"))).status).toBe(400);
  });

  it("guards access", async () => {
    const company = await createCompany();
    expect((await get(artifactsPath(company.id), BOGUS)).status).toBe(401);
    const other = await createCompany();
    const outsider = await boardUser(other.id);
    expect((await get(artifactsPath(company.id), { token: outsider.token })).status).toBe(403);
    const agent = await insertAgent(other.id);
    const { token } = await insertAgentKey(agent.id, other.id);
    expect((await get(artifactsPath(company.id), { token })).status).toBe(403);
    expect((await get(artifactsPath(crypto.randomUUID()))).status).toBe(404);
    const member = await boardUser(company.id, "viewer");
    expect((await get(artifactsPath(company.id), { token: member.token })).status).toBe(200);
  });

  it("pages with an opaque cursor that stays stable while new artifacts arrive", async () => {
    const w = await world();
    const all = (await get(artifactsPath(w.company.id))).body.artifacts.map((a: any) => a.id);
    const first = await get(artifactsPath(w.company.id, "limit=3"));
    expect(first.body.artifacts).toHaveLength(3);
    expect(first.body.nextCursor).toEqual(expect.any(String));

    // Concurrent inserts between pages: newer than the cursor, so they neither repeat nor displace.
    await Promise.all([
      attach(w.company.id, w.solo.id, "late-1.txt", "text/plain"),
      attach(w.company.id, w.solo.id, "late-2.txt", "text/plain"),
      put(`/api/issues/${w.solo.id}/documents/late`, { body: "late" }),
    ]);

    const seen = [...first.body.artifacts.map((a: any) => a.id)];
    let cursor = first.body.nextCursor;
    while (cursor) {
      const page = await get(artifactsPath(w.company.id, `limit=3&cursor=${encodeURIComponent(cursor)}`));
      expect(page.status).toBe(200);
      seen.push(...page.body.artifacts.map((a: any) => a.id));
      cursor = page.body.nextCursor;
    }
    expect(seen).toEqual(all);
    expect((await get(artifactsPath(w.company.id))).body.artifacts).toHaveLength(10);

    // A cursor from a flat listing is refused for a grouped one.
    expect((await get(artifactsPath(w.company.id, `groupBy=task&cursor=${encodeURIComponent(first.body.nextCursor)}`))).status).toBe(400);
  });
});

describe("artifact groups", () => {
  it("groups by task with counts, media kinds and preview artifacts; pages over groups", async () => {
    const w = await world();
    const res = await get(artifactsPath(w.company.id, "groupBy=task"));
    expect(res.status).toBe(200);
    expect(res.body.artifacts).toBeUndefined();
    const groups = res.body.groups as any[];
    expect(groups).toHaveLength(3);
    const byIssue = Object.fromEntries(groups.map((g) => [g.issue.id, g]));
    expect(byIssue[w.solo.id]).toMatchObject({
      id: `task:${w.solo.id}`,
      groupBy: "task",
      issue: { id: w.solo.id, identifier: w.solo.identifier, title: "Research" },
      title: "Research",
      count: 4,
      mediaKinds: ["document", "file", "text", "video"],
      href: `/issues/${w.solo.identifier}`,
    });
    expect(byIssue[w.solo.id].previewArtifacts).toHaveLength(3);
    expectNewestFirst(byIssue[w.solo.id].previewArtifacts);
    expect(byIssue[w.solo.id].updatedAt).toBe(byIssue[w.solo.id].previewArtifacts[0].updatedAt);
    expect(byIssue[w.child.id]).toMatchObject({ count: 2, mediaKinds: ["document", "image"] });
    expect(byIssue[w.parent.id]).toMatchObject({ count: 1, mediaKinds: [] });
    expectNewestFirst(groups.map((g) => ({ updatedAt: g.updatedAt, id: g.issue.id })));

    const pageIds: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await get(artifactsPath(w.company.id, `groupBy=task&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`));
      expect(page.status).toBe(200);
      expect(page.body.groups.length).toBeLessThanOrEqual(1);
      pageIds.push(...page.body.groups.map((g: any) => g.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(pageIds).toEqual(groups.map((g) => g.id));

    const images = await get(artifactsPath(w.company.id, "groupBy=task&kind=image"));
    expect(images.body.groups.map((g: any) => g.issue.id)).toEqual([w.child.id]);
  });

  it("groups sub-tasks under their parent with parent_task", async () => {
    const w = await world();
    const res = await get(artifactsPath(w.company.id, "groupBy=parent_task"));
    expect(res.status).toBe(200);
    const byIssue = Object.fromEntries((res.body.groups as any[]).map((g) => [g.issue.id, g]));
    expect(Object.keys(byIssue).sort()).toEqual([w.parent.id, w.solo.id].sort());
    expect(byIssue[w.parent.id]).toMatchObject({
      id: `parent_task:${w.parent.id}`,
      groupBy: "parent_task",
      title: "Launch website",
      count: 3,
      mediaKinds: ["document", "image"],
    });
  });

  it("expands one group with groupIssueId", async () => {
    const w = await world();
    const res = await get(artifactsPath(w.company.id, `groupBy=parent_task&groupIssueId=${w.parent.id}&limit=2`));
    expect(res.status).toBe(200);
    expect(res.body.groups).toBeUndefined();
    expect(res.body.artifacts).toHaveLength(2);
    expect(res.body.selectedGroup).toMatchObject({ id: `parent_task:${w.parent.id}`, count: 3 });
    const rest = await get(
      artifactsPath(w.company.id, `groupBy=parent_task&groupIssueId=${w.parent.id}&limit=2&cursor=${encodeURIComponent(res.body.nextCursor)}`),
    );
    expect(rest.body.artifacts).toHaveLength(1);
    expect(rest.body.nextCursor).toBeNull();
    const ids = [...res.body.artifacts, ...rest.body.artifacts].map((a: any) => a.id).sort();
    expect(ids).toEqual([`attachment:${w.image.id}`, `document:${w.plan.id}`, `work_product:${w.wp.id}`].sort());

    // groupBy defaults to task when only groupIssueId is given.
    const task = await get(artifactsPath(w.company.id, `groupIssueId=${w.child.id}`));
    expect(task.body.selectedGroup).toMatchObject({ id: `task:${w.child.id}`, count: 2 });
    const empty = await get(artifactsPath(w.company.id, `groupIssueId=${crypto.randomUUID()}`));
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ artifacts: [], nextCursor: null, selectedGroup: null });
  });
});

describe("OpenAPI document", () => {
  it("describes every documents, annotations, attachments, assets and artifacts route", async () => {
    const res = await get("/api/openapi.json");
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, any>>;
    const expected: Array<[string, string]> = [
      ["/api/issues/{issueId}/documents", "get"],
      ["/api/issues/{issueId}/documents/{key}", "get"],
      ["/api/issues/{issueId}/documents/{key}", "put"],
      ["/api/issues/{issueId}/documents/{key}", "delete"],
      ["/api/issues/{issueId}/documents/{key}/lock", "post"],
      ["/api/issues/{issueId}/documents/{key}/unlock", "post"],
      ["/api/issues/{issueId}/documents/{key}/revisions", "get"],
      ["/api/issues/{issueId}/documents/{key}/revisions/{revisionId}/restore", "post"],
      ["/api/issues/{issueId}/documents/{key}/annotations", "get"],
      ["/api/issues/{issueId}/documents/{key}/annotations", "post"],
      ["/api/issues/{issueId}/documents/{key}/annotations/{threadId}/comments", "post"],
      ["/api/issues/{issueId}/documents/{key}/annotations/{threadId}/resolve", "post"],
      ["/api/issues/{issueId}/documents/{key}/annotations/{threadId}/reopen", "post"],
      ["/api/companies/{companyId}/issues/{issueId}/attachments", "post"],
      ["/api/issues/{issueId}/attachments", "get"],
      ["/api/attachments/{attachmentId}/content", "get"],
      ["/api/attachments/{attachmentId}", "delete"],
      ["/api/companies/{companyId}/logo", "post"],
      ["/api/assets/{assetId}/content", "get"],
      ["/api/companies/{companyId}/artifacts", "get"],
      ["/api/issues/{issueId}/work-products", "post"],
      ["/api/issues/{issueId}/work-products", "get"],
    ];
    for (const [path, method] of expected) expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
    const put = paths["/api/issues/{issueId}/documents/{key}"].put;
    expect(Object.keys(put.responses).sort()).toEqual(["200", "201", "400", "401", "404", "409", "413"]);
    expect(paths["/api/companies/{companyId}/logo"].post.requestBody.content["multipart/form-data"]).toBeDefined();
    expect(Object.keys(paths["/api/attachments/{attachmentId}/content"].get.responses)).toEqual(expect.arrayContaining(["200", "206", "304", "416"]));
  });
});

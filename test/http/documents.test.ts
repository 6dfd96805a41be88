// Issue documents through HTTP: revisions, baseRevisionId concurrency, locks, delete,
// restore, annotations (with server re-anchoring) and the issue-detail summaries.
import { describe, expect, it } from "vitest";
import { del, get, post, put } from "../helpers/api";
import { boardUser, createCompany, insertAgent, insertAgentKey, testD1 } from "../helpers/fixtures";
import { insertIssue } from "../helpers/fixtures";
import { createDb } from "../../src/db/client";
import { documentSummariesForIssue, legacyPlanDocumentFromDescription, planDocumentForIssue } from "../../src/domain/documents/summaries";

const BOGUS = { token: "svc_agent_bogus" };

async function setup() {
  const company = await createCompany();
  const issue = await insertIssue(company.id);
  const agent = await insertAgent(company.id);
  const { token: agentToken } = await insertAgentKey(agent.id, company.id);
  return { company, issue, agent, agentToken };
}

const docPath = (issueId: string, key = "plan") => `/api/issues/${issueId}/documents/${key}`;

async function activityActions(companyId: string, issueId: string) {
  const res = await get(`/api/companies/${companyId}/activity?entityId=${issueId}`);
  expect(res.status).toBe(200);
  return (res.body as Array<{ action: string }>).map((a) => a.action);
}

describe("document PUT and GET", () => {
  it("creates revision 1, then updates with the current baseRevisionId", async () => {
    const { company, issue } = await setup();
    const created = await put(docPath(issue.id), { title: "Plan", body: "# Plan\n\nStep one.", changeSummary: "first" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      key: "plan",
      title: "Plan",
      format: "markdown",
      body: "# Plan\n\nStep one.",
      latestRevisionNumber: 1,
      changeSummary: "first",
      lockedAt: null,
    });
    const rev1 = created.body.latestRevisionId;

    const updated = await put(docPath(issue.id), { body: "# Plan\n\nStep two.", changeSummary: "second", baseRevisionId: rev1 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ latestRevisionNumber: 2, body: "# Plan\n\nStep two.", title: "Plan", changeSummary: "second" });

    // By identifier as well as by id.
    const fetched = await get(docPath(issue.identifier));
    expect(fetched.status).toBe(200);
    expect(fetched.body.latestRevisionId).toBe(updated.body.latestRevisionId);

    const list = await get(`/api/issues/${issue.id}/documents`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0].body).toBe("# Plan\n\nStep two.");

    const actions = await activityActions(company.id, issue.id);
    expect(actions).toContain("issue.document_created");
    expect(actions).toContain("issue.document_updated");
  });

  it("rejects an update without baseRevisionId and a stale one with 409 and the current revision id", async () => {
    const { issue } = await setup();
    const created = await put(docPath(issue.id), { body: "v1" });
    const rev1 = created.body.latestRevisionId;
    const missing = await put(docPath(issue.id), { body: "v2" });
    expect(missing.status).toBe(409);
    expect(missing.body.error).toBe("Document update requires baseRevisionId");
    expect(missing.body.details.currentRevisionId).toBe(rev1);

    const second = await put(docPath(issue.id), { body: "v2", baseRevisionId: rev1 });
    expect(second.status).toBe(200);
    const stale = await put(docPath(issue.id), { body: "v3", baseRevisionId: rev1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe("Document was updated by someone else");
    expect(stale.body.details.currentRevisionId).toBe(second.body.latestRevisionId);

    const notYet = await put(docPath(issue.id, "notes"), { body: "x", baseRevisionId: rev1 });
    expect(notYet.status).toBe(409);
  });

  it("validates key, format and body size", async () => {
    const { issue } = await setup();
    expect((await put(docPath(issue.id, "Plan"), { body: "x" })).status).toBe(400);
    expect((await put(docPath(issue.id, "pl%20an"), { body: "x" })).status).toBe(400);
    expect((await put(docPath(issue.id, "a.b"), { body: "x" })).status).toBe(400);
    expect((await put(docPath(issue.id, "ok_key-2"), { body: "x" })).status).toBe(201);
    const html = await put(docPath(issue.id), { body: "x", format: "html" });
    expect(html.status).toBe(400);
    expect((await put(docPath(issue.id), { title: "no body" })).status).toBe(400);

    const max = "a".repeat(512 * 1024);
    expect((await put(docPath(issue.id, "big"), { body: max })).status).toBe(201);
    const tooBig = await put(docPath(issue.id, "bigger"), { body: `${max}a` });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toMatch(/512 KiB/);
    // Multi-byte characters count as UTF-8 bytes.
    const wide = await put(docPath(issue.id, "wide"), { body: "é".repeat(300 * 1024) });
    expect(wide.status).toBe(413);
  });

  it("guards access: 401 without a caller, 404 for other companies and missing things", async () => {
    const { issue } = await setup();
    await put(docPath(issue.id), { body: "secret plan" });
    expect((await get(docPath(issue.id), BOGUS)).status).toBe(401);
    expect((await put(docPath(issue.id), { body: "x" }, BOGUS)).status).toBe(401);
    expect((await get(`/api/issues/${issue.id}/documents`, BOGUS)).status).toBe(401);

    const other = await setup();
    const outsider = { token: other.agentToken };
    expect((await get(docPath(issue.id), outsider)).status).toBe(404);
    expect((await get(`/api/issues/${issue.id}/documents`, outsider)).status).toBe(404);
    expect((await put(docPath(issue.id), { body: "x" }, outsider)).status).toBe(404);
    const member = await boardUser(other.company.id);
    expect((await get(docPath(issue.id), { token: member.token })).status).toBe(404);

    expect((await get(docPath(issue.id, "nothing"))).status).toBe(404);
    expect((await get(docPath(crypto.randomUUID()))).status).toBe(404);
    expect((await get(docPath("ZZZ-999999"))).status).toBe(404);
    expect((await get(`/api/issues/${crypto.randomUUID()}/documents`)).status).toBe(404);
  });

  it("lets agents of the company write documents", async () => {
    const { issue, agent, agentToken } = await setup();
    const res = await put(docPath(issue.id, "notes"), { body: "agent notes" }, { token: agentToken });
    expect(res.status).toBe(201);
    expect(res.body.createdByAgentId).toBe(agent.id);
    expect(res.body.createdByUserId).toBeNull();
  });
});

describe("document revisions and restore", () => {
  it("lists revisions newest first and restores an old one as a new latest revision", async () => {
    const { company, issue } = await setup();
    const r1 = await put(docPath(issue.id), { title: "T1", body: "one", changeSummary: "c1" });
    const r2 = await put(docPath(issue.id), { title: "T2", body: "two", baseRevisionId: r1.body.latestRevisionId });
    const revisions = await get(`${docPath(issue.id)}/revisions`);
    expect(revisions.status).toBe(200);
    expect(revisions.body.map((r: any) => r.revisionNumber)).toEqual([2, 1]);
    expect(revisions.body[1]).toMatchObject({ body: "one", title: "T1", changeSummary: "c1", baseRevisionId: null });
    expect(revisions.body[0].baseRevisionId).toBe(r1.body.latestRevisionId);

    const restored = await post(`${docPath(issue.id)}/revisions/${r1.body.latestRevisionId}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ latestRevisionNumber: 3, body: "one", title: "T1" });
    const after = await get(`${docPath(issue.id)}/revisions`);
    expect(after.body[0]).toMatchObject({ revisionNumber: 3, restoredFromRevisionId: r1.body.latestRevisionId, baseRevisionId: r2.body.latestRevisionId });
    expect(after.body[0].changeSummary).toMatch(/revision 1/);
    expect(await activityActions(company.id, issue.id)).toContain("issue.document_restored");

    const stale = await post(`${docPath(issue.id)}/revisions/${r1.body.latestRevisionId}/restore`, { baseRevisionId: r2.body.latestRevisionId });
    expect(stale.status).toBe(409);
    expect((await post(`${docPath(issue.id)}/revisions/${crypto.randomUUID()}/restore`)).status).toBe(404);
    expect((await get(`${docPath(issue.id, "none")}/revisions`)).status).toBe(404);
    expect((await get(`${docPath(issue.id)}/revisions`, BOGUS)).status).toBe(401);
    expect((await post(`${docPath(issue.id)}/revisions/${r1.body.latestRevisionId}/restore`, undefined, BOGUS)).status).toBe(401);
  });

  it("serialises 20 concurrent writes with the same baseRevisionId: one wins, nineteen get 409, no gaps", async () => {
    const { issue } = await setup();
    const base = (await put(docPath(issue.id), { body: "start" })).body.latestRevisionId;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => put(docPath(issue.id), { body: `writer ${i}`, baseRevisionId: base })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error).toBe("Document was updated by someone else");

    // Then 10 writers that each chain on the latest they see: revisions stay contiguous.
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        for (let attempt = 0; attempt < 30; attempt++) {
          const latest = (await get(docPath(issue.id))).body.latestRevisionId;
          const res = await put(docPath(issue.id), { body: `chain ${i}`, baseRevisionId: latest });
          if (res.status === 200) return;
        }
        throw new Error("writer never got through");
      }),
    );
    const numbers = (await get(`${docPath(issue.id)}/revisions`)).body.map((r: any) => r.revisionNumber);
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => 12 - i));
  });
});

describe("document locks", () => {
  it("locks: board writes get 409 with key and lockedAt; agent writes go to plan-2, plan-3", async () => {
    const { company, issue, agentToken } = await setup();
    const created = await put(docPath(issue.id), { body: "the plan" });
    const locked = await post(`${docPath(issue.id)}/lock`);
    expect(locked.status).toBe(200);
    expect(locked.body.lockedAt).toEqual(expect.any(String));
    expect(locked.body).toHaveProperty("lockedByAgentId", null);
    expect(locked.body.lockedByUserId).toEqual(expect.any(String));

    const refused = await put(docPath(issue.id), { body: "edit", baseRevisionId: created.body.latestRevisionId });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "Document is locked", key: "plan", lockedAt: locked.body.lockedAt });

    const redirected = await put(docPath(issue.id), { body: "agent edit", baseRevisionId: created.body.latestRevisionId }, { token: agentToken });
    expect(redirected.status).toBe(201);
    expect(redirected.body.key).toBe("plan-2");
    expect(redirected.body.body).toBe("agent edit");
    expect(redirected.body.redirectedFromLockedDocument).toEqual({ sourceKey: "plan", key: "plan-2" });
    const again = await put(docPath(issue.id), { body: "agent edit 2" }, { token: agentToken });
    expect(again.status).toBe(201);
    expect(again.body.redirectedFromLockedDocument).toEqual({ sourceKey: "plan", key: "plan-3" });
    // The locked original is untouched.
    expect((await get(docPath(issue.id))).body).toMatchObject({ body: "the plan", latestRevisionNumber: 1 });

    // Restore on a locked document follows the same rule.
    const restoreRefused = await post(`${docPath(issue.id)}/revisions/${created.body.latestRevisionId}/restore`);
    expect(restoreRefused.status).toBe(409);
    expect(restoreRefused.body.key).toBe("plan");

    // Locked documents cannot be deleted.
    const delLocked = await del(docPath(issue.id));
    expect(delLocked.status).toBe(409);
    expect(delLocked.body).toMatchObject({ error: "Document is locked", key: "plan" });

    // Locking again is idempotent.
    const relock = await post(`${docPath(issue.id)}/lock`);
    expect(relock.body.lockedAt).toBe(locked.body.lockedAt);

    const unlocked = await post(`${docPath(issue.id)}/unlock`);
    expect(unlocked.status).toBe(200);
    expect(unlocked.body).toMatchObject({ lockedAt: null, lockedByAgentId: null, lockedByUserId: null });
    const edit = await put(docPath(issue.id), { body: "edit", baseRevisionId: created.body.latestRevisionId });
    expect(edit.status).toBe(200);

    const actions = await activityActions(company.id, issue.id);
    expect(actions.filter((a) => a === "issue.document_locked")).toHaveLength(1);
    expect(actions.filter((a) => a === "issue.document_unlocked")).toHaveLength(1);
  });

  it("records the agent as the locker and guards the lock routes", async () => {
    const { issue, agent, agentToken } = await setup();
    await put(docPath(issue.id), { body: "x" });
    const locked = await post(`${docPath(issue.id)}/lock`, undefined, { token: agentToken });
    expect(locked.status).toBe(200);
    expect(locked.body).toMatchObject({ lockedByAgentId: agent.id, lockedByUserId: null });
    // Another agent cannot lift the lock; the locker and the board can.
    const peer = await insertAgent(issue.companyId);
    const { token: peerToken } = await insertAgentKey(peer.id, issue.companyId);
    expect((await post(`${docPath(issue.id)}/unlock`, undefined, { token: peerToken })).status).toBe(403);
    expect((await post(`${docPath(issue.id)}/unlock`, undefined, { token: agentToken })).status).toBe(200);
    await post(`${docPath(issue.id)}/lock`);
    expect((await post(`${docPath(issue.id)}/unlock`, undefined, { token: agentToken })).status).toBe(403);
    expect((await post(`${docPath(issue.id)}/unlock`)).status).toBe(200);
    expect((await post(`${docPath(issue.id)}/lock`, undefined, BOGUS)).status).toBe(401);
    expect((await post(`${docPath(issue.id)}/unlock`, undefined, BOGUS)).status).toBe(401);
    const other = await setup();
    expect((await post(`${docPath(issue.id)}/unlock`, undefined, { token: other.agentToken })).status).toBe(404);
    expect((await post(`${docPath(issue.id, "missing")}/lock`)).status).toBe(404);
    expect((await post(`${docPath(issue.id, "BAD")}/lock`)).status).toBe(400);
  });
});

describe("document DELETE", () => {
  it("is board-only and removes every revision", async () => {
    const { company, issue, agentToken } = await setup();
    const r1 = await put(docPath(issue.id), { body: "one" });
    await put(docPath(issue.id), { body: "two", baseRevisionId: r1.body.latestRevisionId });
    expect((await del(docPath(issue.id), { token: agentToken })).status).toBe(403);
    expect((await del(docPath(issue.id), BOGUS)).status).toBe(401);
    const other = await setup();
    expect((await del(docPath(issue.id), { token: (await boardUser(other.company.id)).token })).status).toBe(404);

    const res = await del(docPath(issue.id));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deleted: true, key: "plan" });
    expect((await get(docPath(issue.id))).status).toBe(404);
    const left = await testD1.prepare("SELECT COUNT(*) AS n FROM issue_document_revisions WHERE issue_id = ?1").bind(issue.id).first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect((await del(docPath(issue.id))).status).toBe(404);
    expect(await activityActions(company.id, issue.id)).toContain("issue.document_deleted");
    // The key can be created afresh.
    expect((await put(docPath(issue.id), { body: "new" })).status).toBe(201);
  });
});

describe("annotations", () => {
  const text = "Intro line.\nThe important sentence is here.\nClosing line.";

  async function withDocument() {
    const ctx = await setup();
    const doc = (await put(docPath(ctx.issue.id), { body: text })).body;
    return { ...ctx, doc };
  }
  const annotations = (issueId: string) => `${docPath(issueId)}/annotations`;
  const anchorFor = (body: string, quote: string) => ({ start: body.indexOf(quote), end: body.indexOf(quote) + quote.length, quote });

  it("creates a thread on the current revision, replies, resolves and reopens", async () => {
    const { company, issue, doc, agentToken, agent } = await withDocument();
    const created = await post(annotations(issue.id), { revisionId: doc.latestRevisionId, ...anchorFor(text, "important sentence"), body: "Is this right?" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: "open",
      anchorState: "active",
      documentKey: "plan",
      anchor: { revisionId: doc.latestRevisionId, quote: "important sentence", prefix: "Intro line.\nThe ", suffix: " is here.\nClosing line." },
    });
    expect(created.body.comments).toHaveLength(1);
    const threadId = created.body.id;

    const reply = await post(`${annotations(issue.id)}/${threadId}/comments`, { body: "Yes." }, { token: agentToken });
    expect(reply.status).toBe(201);
    expect(reply.body.comments.map((c: any) => c.body)).toEqual(["Is this right?", "Yes."]);
    expect(reply.body.comments[1].authorAgentId).toBe(agent.id);

    const resolved = await post(`${annotations(issue.id)}/${threadId}/resolve`);
    expect(resolved.status).toBe(200);
    expect(resolved.body.status).toBe("resolved");
    expect(resolved.body.resolvedAt).toEqual(expect.any(String));
    expect((await post(`${annotations(issue.id)}/${threadId}/resolve`)).body.status).toBe("resolved");

    expect((await get(`${annotations(issue.id)}?status=open`)).body).toHaveLength(0);
    expect((await get(`${annotations(issue.id)}?status=resolved`)).body).toHaveLength(1);

    const reopened = await post(`${annotations(issue.id)}/${threadId}/reopen`);
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ status: "open", resolvedAt: null });
    const list = await get(annotations(issue.id));
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);

    const actions = await activityActions(company.id, issue.id);
    expect(actions).toEqual(
      expect.arrayContaining([
        "issue.document_annotation_created",
        "issue.document_annotation_commented",
        "issue.document_annotation_resolved",
        "issue.document_annotation_reopened",
      ]),
    );
  });

  it("requires the current revision (409) and a matching quote (400)", async () => {
    const { issue, doc } = await withDocument();
    const v2 = await put(docPath(issue.id), { body: `${text}\nMore.`, baseRevisionId: doc.latestRevisionId });
    const stale = await post(annotations(issue.id), { revisionId: doc.latestRevisionId, ...anchorFor(text, "Intro"), body: "old" });
    expect(stale.status).toBe(409);
    expect(stale.body.details.currentRevisionId).toBe(v2.body.latestRevisionId);

    const rev = v2.body.latestRevisionId;
    expect((await post(annotations(issue.id), { revisionId: rev, start: 0, end: 5, quote: "Nope!", body: "x" })).status).toBe(400);
    expect((await post(annotations(issue.id), { revisionId: rev, start: 5, end: 5, quote: "", body: "x" })).status).toBe(400);
    expect((await post(annotations(issue.id), { revisionId: rev, start: 0, end: 99999, quote: "Intro", body: "x" })).status).toBe(400);
    expect((await post(annotations(issue.id), { revisionId: rev, ...anchorFor(text, "Intro"), body: "" })).status).toBe(400);
    expect((await post(annotations(issue.id), { revisionId: rev, ...anchorFor(text, "Intro"), prefix: "zzz", body: "x" })).status).toBe(400);
    expect((await post(annotations(issue.id), { revisionId: rev, ...anchorFor(text, "Intro"), body: "x" }, BOGUS)).status).toBe(401);
    expect((await post(`${docPath(issue.id, "missing")}/annotations`, { revisionId: rev, ...anchorFor(text, "Intro"), body: "x" })).status).toBe(404);
    const other = await setup();
    expect((await get(annotations(issue.id), { token: other.agentToken })).status).toBe(404);
    expect((await get(annotations(issue.id), BOGUS)).status).toBe(401);
    expect((await post(`${annotations(issue.id)}/${crypto.randomUUID()}/comments`, { body: "x" })).status).toBe(404);
    expect((await post(`${annotations(issue.id)}/${crypto.randomUUID()}/resolve`)).status).toBe(404);
  });

  it("re-anchors open threads on every new revision: active, shifted, orphaned", async () => {
    const { issue, doc } = await withDocument();
    const make = async (quote: string) =>
      (await post(annotations(issue.id), { revisionId: doc.latestRevisionId, ...anchorFor(text, quote), body: quote })).body.id as string;
    const intro = await make("Intro line.");
    const important = await make("important sentence");
    const closing = await make("Closing line.");

    // Edit after "Intro line." only inside the closing line: intro stays, important stays, closing is gone.
    const v2Body = "Intro line.\nThe important sentence is here.\nFinal words.";
    const v2 = await put(docPath(issue.id), { body: v2Body, baseRevisionId: doc.latestRevisionId });
    let threads = Object.fromEntries((await get(annotations(issue.id))).body.map((t: any) => [t.id, t]));
    expect(threads[intro]).toMatchObject({ anchorState: "active", anchor: { start: 0, end: 11, revisionId: v2.body.latestRevisionId } });
    expect(threads[important].anchorState).toBe("active");
    expect(threads[closing].anchorState).toBe("orphaned");
    expect(threads[closing].anchor.revisionId).toBe(doc.latestRevisionId);

    // Insert text before: both remaining threads shift.
    const v3Body = `New heading\n\n${v2Body}`;
    const v3 = await put(docPath(issue.id), { body: v3Body, baseRevisionId: v2.body.latestRevisionId });
    threads = Object.fromEntries((await get(annotations(issue.id))).body.map((t: any) => [t.id, t]));
    expect(threads[important].anchorState).toBe("shifted");
    expect(v3Body.slice(threads[important].anchor.start, threads[important].anchor.end)).toBe("important sentence");
    expect(threads[intro].anchor.start).toBe(13);

    // Restoring revision 1 brings the orphaned thread's text back.
    await post(`${docPath(issue.id)}/revisions/${doc.latestRevisionId}/restore`, { baseRevisionId: v3.body.latestRevisionId });
    threads = Object.fromEntries((await get(annotations(issue.id))).body.map((t: any) => [t.id, t]));
    expect(threads[closing].anchorState).toBe("active");
    expect(threads[intro].anchorState).toBe("shifted");
    expect(threads[intro].anchor.start).toBe(0);
  });

  it("leaves resolved threads alone and re-anchors them on reopen", async () => {
    const { issue, doc } = await withDocument();
    const thread = (await post(annotations(issue.id), { revisionId: doc.latestRevisionId, ...anchorFor(text, "important sentence"), body: "x" })).body;
    await post(`${annotations(issue.id)}/${thread.id}/resolve`);
    const body = `Prepended.\n${text}`;
    const v2 = await put(docPath(issue.id), { body, baseRevisionId: doc.latestRevisionId });
    const resolved = (await get(annotations(issue.id))).body[0];
    expect(resolved.anchor.revisionId).toBe(doc.latestRevisionId);
    const reopened = await post(`${annotations(issue.id)}/${thread.id}/reopen`);
    expect(reopened.body).toMatchObject({
      anchorState: "shifted",
      anchor: { revisionId: v2.body.latestRevisionId, start: body.indexOf("important sentence") },
    });
  });
});

describe("issue detail document fields", () => {
  it("summaries list every document without bodies; planDocument is the plan key", async () => {
    const { issue } = await setup();
    const db = createDb(testD1);
    expect(await planDocumentForIssue(db, issue.id)).toBeNull();
    expect(await documentSummariesForIssue(db, issue.id)).toEqual([]);
    await put(docPath(issue.id, "notes"), { body: "n" });
    await put(docPath(issue.id), { title: "The plan", body: "p" });
    const summaries = await documentSummariesForIssue(db, issue.id);
    expect(summaries.map((s) => s.key)).toEqual(["notes", "plan"]);
    expect(summaries[0]).not.toHaveProperty("body");
    expect(await planDocumentForIssue(db, issue.id)).toMatchObject({ key: "plan", title: "The plan", body: "p" });
    expect(legacyPlanDocumentFromDescription("Intro <plan>\n1. do it\n</plan> end")).toMatchObject({ key: "plan", body: "1. do it" });
    expect(legacyPlanDocumentFromDescription("no plan here")).toBeNull();
  });

  it("appear on GET /api/issues/{issueId}", async () => {
    const { company } = await setup();
    const issue = await insertIssue(company.id, { description: "Old style <plan>Ship it</plan>" });
    const before = await get(`/api/issues/${issue.id}`);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ planDocument: null, documentSummaries: [], legacyPlanDocument: { key: "plan", body: "Ship it" }, workProducts: [] });
    await put(docPath(issue.id), { body: "Real plan" });
    await post(`/api/issues/${issue.id}/work-products`, { kind: "report", title: "Report" });
    const after = await get(`/api/issues/${issue.identifier}`);
    expect(after.body.planDocument).toMatchObject({ key: "plan", body: "Real plan" });
    expect(after.body.documentSummaries.map((d: any) => d.key)).toEqual(["plan"]);
    expect(after.body.legacyPlanDocument).toBeNull();
    expect(after.body.workProducts.map((w: any) => w.title)).toEqual(["Report"]);
  });
});

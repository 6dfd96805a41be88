// D1 Sessions: every API response hands the caller a bookmark (`x-d1-bookmark`); a read that
// sends it back is served at least as fresh as the caller's own last write. A bookmark the
// service did not hand out is ignored rather than failing the request.
import { describe, expect, it } from "vitest";
import { get, patch, post, unique } from "../helpers/api";
import { createCompany } from "../helpers/fixtures";

describe("D1 sessions and bookmarks", () => {
  it("a mutation returns the bookmark of its write; reading with it sees the write", async () => {
    const company = await createCompany();
    const created = await post(`/api/companies/${company.id}/issues`, { title: unique("Bm") });
    expect(created.status).toBe(201);
    const afterCreate = created.headers.get("x-d1-bookmark");
    expect(afterCreate).toMatch(/^(DB(_SHARD_\d+)?:)?[0-9a-f]+(-[0-9a-f]+)+$/i);

    const updated = await patch(`/api/issues/${created.body.id}`, { title: "Renamed" }, { headers: { "x-d1-bookmark": afterCreate! } });
    const afterUpdate = updated.headers.get("x-d1-bookmark");
    expect(afterUpdate).toBeTruthy();
    expect(afterUpdate! >= afterCreate!).toBe(true);

    const read = await get(`/api/issues/${created.body.id}`, { headers: { "x-d1-bookmark": afterUpdate! } });
    expect(read.status).toBe(200);
    expect(read.body.title).toBe("Renamed");
    expect(read.headers.get("x-d1-bookmark")! >= afterUpdate!).toBe(true);
  });

  it("reads without a bookmark still answer with one", async () => {
    const company = await createCompany();
    const res = await get(`/api/companies/${company.id}/issues`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-d1-bookmark")).toBeTruthy();
  });

  it("a malformed bookmark is ignored (no 500)", async () => {
    const company = await createCompany();
    for (const bogus of ["not a bookmark", "zz-zz", "0".repeat(600), "00000000-00000000", "ffffffff-ffffffff-ffffffff-ffffffff"]) {
      const res = await get(`/api/companies/${company.id}/issues`, { headers: { "x-d1-bookmark": bogus } });
      expect(res.status).toBe(200);
    }
  });
});

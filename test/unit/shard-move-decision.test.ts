// Whether a company may move to a shard now (src/domain/shards/decide.ts): the shard must be one of
// this deployment's, the company must exist and live elsewhere, and no live move may hold it.
import { describe, expect, it } from "vitest";
import { decideMove, STALE_FENCE_MS } from "../../src/domain/shards/decide";

const SHARDS = ["DB_SHARD_0", "DB_SHARD_1"];
const now = Date.parse("2026-11-25T12:00:00.000Z");
const ago = (ms: number) => new Date(now - ms).toISOString();

describe("decideMove", () => {
  it("moves a company on another shard that no move holds", () => {
    expect(decideMove({ shard: "DB_SHARD_0", fencedAt: null }, "DB_SHARD_1", SHARDS, now)).toEqual({ ok: true, from: "DB_SHARD_0", takesOverFence: null });
    // A company placed before shards (on the directory itself) moves onto a shard.
    expect(decideMove({ shard: "DB", fencedAt: null }, "DB_SHARD_0", SHARDS, now)).toMatchObject({ ok: true, from: "DB" });
  });

  it("refuses an unknown shard, the directory as a target and a single-database deployment (400)", () => {
    expect(decideMove({ shard: "DB_SHARD_0", fencedAt: null }, "DB_SHARD_7", SHARDS, now)).toMatchObject({ ok: false, status: 400 });
    expect(decideMove({ shard: "DB_SHARD_0", fencedAt: null }, "DB", SHARDS, now)).toMatchObject({ ok: false, status: 400 });
    expect(decideMove({ shard: "DB", fencedAt: null }, "DB", ["DB"], now)).toMatchObject({
      ok: false,
      status: 400,
      error: expect.stringContaining("single database"),
    });
  });

  it("refuses an unknown company (404) and the shard it is on (409)", () => {
    expect(decideMove(null, "DB_SHARD_1", SHARDS, now)).toMatchObject({ ok: false, status: 404 });
    expect(decideMove({ shard: "DB_SHARD_1", fencedAt: null }, "DB_SHARD_1", SHARDS, now)).toMatchObject({ ok: false, status: 409 });
  });

  it("a live fence is a move in progress (409); a stale one belongs to a move that died and is taken over", () => {
    const live = ago(STALE_FENCE_MS - 1000);
    expect(decideMove({ shard: "DB_SHARD_0", fencedAt: live }, "DB_SHARD_1", SHARDS, now)).toMatchObject({
      ok: false,
      status: 409,
      error: expect.stringContaining("in progress"),
    });
    const stale = ago(STALE_FENCE_MS + 1000);
    expect(decideMove({ shard: "DB_SHARD_0", fencedAt: stale }, "DB_SHARD_1", SHARDS, now)).toEqual({ ok: true, from: "DB_SHARD_0", takesOverFence: stale });
    // Even onto the shard it is on, a live fence answers "in progress" first.
    expect(decideMove({ shard: "DB_SHARD_1", fencedAt: live }, "DB_SHARD_1", SHARDS, now)).toMatchObject({
      status: 409,
      error: expect.stringContaining("in progress"),
    });
  });
});

// Id lists past D1's 100-parameter limit: a board claim covering 150 companies is shown and
// claimed whole (the id list is bound as one JSON parameter, not one parameter per id).
import { describe, expect, it } from "vitest";
import { AUTHENTICATED, get, post } from "../helpers/api";
import { clearTable, createCompany, schema, signUp, testD1 } from "../helpers/fixtures";
import { mintBoardClaimTokenIfNeeded } from "../../src/domain/access/board-claim";
import { createDb } from "../../src/db/client";

describe("board claim over 150 companies", () => {
  it("lists and claims every company", { timeout: 120_000 }, async () => {
    const ids: string[] = [];
    for (let i = 0; i < 150; i += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, () => createCompany()));
      ids.push(...batch.map((c) => c.id));
    }
    await clearTable(schema.boardClaimTokens);
    const minted = await mintBoardClaimTokenIfNeeded(createDb(testD1));
    expect(minted!.companies.length).toBeGreaterThanOrEqual(150);

    const view = await get(`/api/board-claim/${minted!.token}`);
    expect(view.status).toBe(200);
    expect(view.body.companies.map((c: any) => c.id)).toEqual(expect.arrayContaining(ids));

    const person = await signUp();
    const claimed = await post(`/api/board-claim/${minted!.token}/claim`, {}, { env: AUTHENTICATED, cookie: person.cookie });
    expect(claimed.status).toBe(200);
    expect(claimed.body.companies.filter((c: any) => ids.includes(c.id) && c.claimed)).toHaveLength(150);
    const listed = await get("/api/companies", { env: AUTHENTICATED, cookie: person.cookie });
    expect(listed.body.map((c: any) => c.id)).toEqual(expect.arrayContaining(ids));
  });
});

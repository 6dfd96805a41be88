// A concurrent double bootstrap claim yields exactly one winner (own file: fresh instance state).
import { expect, it } from "vitest";
import { AUTHENTICATED, post } from "../helpers/api";
import { signUp, testD1 } from "../helpers/fixtures";

it("two concurrent claims: exactly one 200 and one 409", async () => {
  const a = await signUp();
  const b = await signUp();
  const results = await Promise.all([
    post("/api/bootstrap/claim", undefined, { env: AUTHENTICATED, cookie: a.cookie }),
    post("/api/bootstrap/claim", undefined, { env: AUTHENTICATED, cookie: b.cookie }),
  ]);
  expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  const admins = await testD1.prepare("SELECT user_id FROM instance_admins").all();
  expect(admins.results).toHaveLength(1);
  const winner = results.find((r) => r.status === 200)!;
  expect(admins.results[0].user_id).toBe(winner.body.userId);
});

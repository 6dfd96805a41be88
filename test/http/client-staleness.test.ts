// The typed client is generated from the OpenAPI document into the repository
// (src/client/generated/openapi.json and schema.d.ts, `npm run client:generate`): a route or schema change
// that was not regenerated fails here. (test/e2e/typed-client.test.ts checks schema.d.ts against
// the document and type-checks a program against it.)
import { describe, expect, it } from "vitest";
import committed from "../../src/client/generated/openapi.json";
import { get } from "../helpers/api";

describe("typed client", () => {
  it("src/client/generated/openapi.json is the live document (run `npm run client:generate` after changing routes or schemas)", async () => {
    const { servers: _servers, ...live } = (await get("/api/openapi.json")).body;
    expect(JSON.parse(JSON.stringify(committed))).toEqual(live);
  });
});

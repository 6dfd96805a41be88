// The CLI's challenge names the board console page where it is approved (`acp login` prints it):
// on the public base URL when one is configured, else on the origin the CLI called.
import { describe, expect, it } from "vitest";
import { AUTHENTICATED, post } from "../helpers/api";

describe("CLI challenge approvalUrl", () => {
  it("is the console's /cli-auth/{id} page on the request's origin", async () => {
    const created = await post("/api/cli-auth/challenges", { clientName: "laptop" });
    expect(created.status).toBe(201);
    expect(created.body.approvalUrl).toBe(`http://localhost/cli-auth/${created.body.id}`);
  });

  it("uses AUTH_PUBLIC_BASE_URL when it is set", async () => {
    const env = { ...AUTHENTICATED, AUTH_BASE_URL_MODE: "explicit", AUTH_PUBLIC_BASE_URL: "https://board.example.com/" };
    const created = await post("/api/cli-auth/challenges", { clientName: "laptop" }, { env });
    expect(created.status).toBe(201);
    expect(created.body.approvalUrl).toBe(`https://board.example.com/cli-auth/${created.body.id}`);
  });
});

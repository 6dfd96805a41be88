// Import boundaries between the parts that run in different places: the CLI (Node, on users'
// machines) and the Worker share only the typed client (src/client) and the protocol (src/protocol).
// The CLI never imports Worker code (it would drag the Worker's dependencies into a Node binary),
// the Worker never imports the CLI, and the shared parts import nothing of either.
import { describe, expect, it } from "vitest";
import { areaOf as area, importTable } from "../helpers/imports";

const table = importTable();
const SHARED = ["client", "protocol"];

describe("import boundaries", () => {
  it("sees the tree (a broken scan would pass vacuously)", () => {
    expect(table.filter((f) => f.rel.startsWith("cli/")).length).toBeGreaterThan(5);
    expect(table.filter((f) => f.rel.startsWith("domain/")).length).toBeGreaterThan(100);
    expect(table.find((f) => f.rel === "cli/runner.ts")?.imports).toContain("src:protocol/runner");
  });

  it("the CLI imports only the CLI, the typed client, the protocol and Node-side packages", () => {
    const allowedPackages = /^(node:|commander$|ws$|openapi-fetch$|zod$|eventsource-parser$)/;
    const bad = table
      // build.mjs is the CLI's build script (esbuild), not part of the CLI.
      .filter((f) => f.rel.startsWith("cli/") && f.rel !== "cli/build.mjs")
      .flatMap((f) => f.imports.filter((i) => (area(i) ? !["cli", ...SHARED].includes(area(i)!) : !allowedPackages.test(i))).map((i) => `${f.rel} → ${i}`));
    expect(bad).toEqual([]);
  });

  it("no Worker module imports the CLI", () => {
    const bad = table.filter((f) => !f.rel.startsWith("cli/")).flatMap((f) => f.imports.filter((i) => area(i) === "cli").map((i) => `${f.rel} → ${i}`));
    expect(bad).toEqual([]);
  });

  it("the shared parts stand alone: the protocol imports only zod/mini, the client only openapi-fetch and its generated types", () => {
    const protocol = table
      .filter((f) => f.rel.startsWith("protocol/"))
      .flatMap((f) => f.imports.filter((i) => i !== "zod/mini" && area(i) !== "protocol").map((i) => `${f.rel} → ${i}`));
    expect(protocol).toEqual([]);
    const client = table
      .filter((f) => f.rel.startsWith("client/"))
      .flatMap((f) => f.imports.filter((i) => i !== "openapi-fetch" && area(i) !== "client").map((i) => `${f.rel} → ${i}`));
    expect(client).toEqual([]);
  });
});

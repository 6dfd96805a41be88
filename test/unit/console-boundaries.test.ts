// The board console runs in the browser: it talks to the API only through the typed client and
// imports nothing of the Worker but the event catalogue (a table with no imports); the Worker and
// the CLI never import the console.
import { describe, expect, it } from "vitest";
import { importTable } from "../helpers/imports";

const table = importTable();
const consoleFiles = table.filter((f) => f.rel.startsWith("console/") && f.rel !== "console/build.mjs");

describe("board console boundaries", () => {
  it("sees the console (a broken scan would pass vacuously)", () => {
    expect(consoleFiles.length).toBeGreaterThan(20);
    expect(consoleFiles.find((f) => f.rel === "console/lib/api.ts")?.imports).toContain("src:client");
  });

  it("imports only the console, the typed client, the event catalogue and its browser packages", () => {
    const packages = /^(preact|preact\/hooks|preact-iso\/router|preact-iso\/lazy|@preact\/signals|micromark)$/;
    const allowed = (i: string) =>
      i.startsWith("src:console/") ||
      i === "src:client" ||
      i === "src:domain/events/catalogue" ||
      i === "src:domain/sensitive-keys" ||
      i === "src:lazy" ||
      (!i.startsWith("src:") && packages.test(i)) ||
      i.endsWith(".css");
    const bad = consoleFiles.flatMap((f) => f.imports.filter((i) => !allowed(i)).map((i) => `${f.rel} → ${i}`));
    expect(bad).toEqual([]);
  });

  it("the service modules it imports stand alone (the event catalogue, the secret-like keys)", () => {
    expect(table.find((f) => f.rel === "domain/events/catalogue.ts")?.imports).toEqual([]);
    expect(table.find((f) => f.rel === "domain/sensitive-keys.ts")?.imports).toEqual([]);
    expect(table.find((f) => f.rel === "lazy.ts")?.imports).toEqual([]);
  });

  it("nothing outside the console imports it", () => {
    const bad = table
      .filter((f) => !f.rel.startsWith("console/"))
      .flatMap((f) => f.imports.filter((i) => i.startsWith("src:console")).map((i) => `${f.rel} → ${i}`));
    expect(bad).toEqual([]);
  });
});

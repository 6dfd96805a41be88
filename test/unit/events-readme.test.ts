// The README's event catalogue and its signature-verification snippet match what the service
// sends: the catalogue table lists exactly the catalogue's types, and the snippet, run as written,
// accepts a delivery signed by the service's own delivery code and refuses a tampered one.
import { readdirSync, readFileSync, mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../src/domain/events/catalogue";
import { signedDelivery } from "../../src/domain/events/delivery";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");
const section = readme.slice(readme.indexOf("### Outbound events"), readme.indexOf("### Feedback traces"));

describe("README: outbound events", () => {
  it("the catalogue table lists exactly the catalogue", () => {
    const listed = [...section.matchAll(/^\| `([a-z_.]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(EVENT_TYPES);
  });

  it("each type names its producer, and the producer exists: the activity mapping's cases or the migration's trigger", () => {
    const mapping = readFileSync(path.join(root, "src/domain/events/from-activity.ts"), "utf8");
    const migrations = readdirSync(path.join(root, "migrations"))
      .map((f) => readFileSync(path.join(root, "migrations", f), "utf8"))
      .join("\n");
    const rows = [...section.matchAll(/^\| `([a-z_.]+)` \| .*? \| (.+) \|$/gm)].map((m) => ({ type: m[1], producer: m[2] }));
    expect(rows.map((r) => r.type)).toEqual(EVENT_TYPES);
    for (const { type, producer } of rows) {
      const names = [...producer.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      if (producer.startsWith("activity ")) {
        expect(mapping, `${type}: the mapping announces it`).toContain(`"${type}"`);
        for (const action of names) expect(mapping, `${type}: activity ${action}`).toContain(`"${action}"`);
      } else if (producer.startsWith("trigger ")) {
        for (const trigger of names) {
          const body = new RegExp(`CREATE TRIGGER \`${trigger}\`[\\s\\S]*?END;`).exec(migrations)?.[0];
          expect(body, `${type}: trigger ${trigger}`).toBeTruthy();
          expect(body, `${type}: trigger ${trigger} writes it`).toContain(type.split(".").pop()!);
        }
      } else expect(type).toBe("ping");
    }
  });

  it("the verification snippet accepts what the service signs and refuses a tampered body or a stale timestamp", async () => {
    const snippet = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    expect(snippet).toContain("export function verify");
    const dir = mkdtempSync(path.join(tmpdir(), "acp-readme-"));
    try {
      const file = path.join(dir, "verify.mjs");
      writeFileSync(file, snippet!);
      const { verify } = await import(pathToFileURL(file).href);
      const event = { id: crypto.randomUUID(), type: "issue.created", data: { title: "Ünïcode ✓" } };
      const { body, headers } = signedDelivery(event, "whsec_test", Date.now());
      const raw = Buffer.from(body);
      expect(verify(raw, headers, "whsec_test")).toBe(true);
      expect(verify(Buffer.from(raw.toString().replace("issue.created", "issue.updated")), headers, "whsec_test")).toBe(false);
      expect(verify(raw, headers, "whsec_other")).toBe(false);
      const old = signedDelivery(event, "whsec_test", Date.now() - 3600_000);
      expect(verify(Buffer.from(old.body), old.headers, "whsec_test")).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

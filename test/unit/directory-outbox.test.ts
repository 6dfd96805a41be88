// The directory outbox's payloads are read with a schema per kind (src/db/directory-outbox.ts):
// what the triggers write parses; a payload that drifted is an error naming the row.
import { describe, expect, it } from "vitest";
import { parseOutboxRow } from "../../src/db/directory-outbox";

const row = (kind: string, payload: unknown, seq = 7) => ({ seq, kind, companyId: "c-1", payload: JSON.stringify(payload) }) as never;

describe("directory outbox payloads", () => {
  it("each kind's payload as the triggers write it", () => {
    expect(parseOutboxRow(row("company", { name: "Acme", issuePrefix: "ACME", status: "active", updatedAt: "2026-11-27T00:00:00Z" }))).toMatchObject({
      kind: "company",
      payload: { name: "Acme", status: "active" },
    });
    expect(parseOutboxRow(row("membership", { userId: "u-1", role: "owner", status: "deleted" })).payload).toMatchObject({ status: "deleted" });
    expect(parseOutboxRow(row("agent_key", { keyHash: "h", keyId: "k", agentId: "a", agentStatus: null, revokedAt: null })).payload).toMatchObject({
      keyHash: "h",
    });
    expect(parseOutboxRow(row("public_id", { kind: "routine_trigger", publicId: "p" })).payload).toEqual({ kind: "routine_trigger", publicId: "p" });
    expect(parseOutboxRow(row("company_deleted", {})).kind).toBe("company_deleted");
  });

  it("a payload that does not match its kind is an error naming the row and the field", () => {
    expect(() => parseOutboxRow(row("membership", { userId: "u-1", role: "emperor", status: "active" }, 42))).toThrow(/row 42 \(membership\): role/);
    expect(() => parseOutboxRow(row("agent_status", { agentId: "a" }, 43))).toThrow(/row 43 \(agent_status\): agentStatus/);
    expect(() => parseOutboxRow({ seq: 44, kind: "company", companyId: "c", payload: "{nope" } as never)).toThrow(
      /row 44 \(company\): the payload is not JSON/,
    );
  });
});

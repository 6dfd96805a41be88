// The guard conditions commands re-check in their batches (src/db/guards.ts), evaluated against the
// migrated D1 database: values match exactly, null matches only NULL, versions and extra conditions.
import { describe, expect, it } from "vitest";
import { and, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import { noRowExists, rowExists, rowMatches, sameVersion } from "../../src/db/guards";
import { onShardOf } from "../../src/db/placement";
import { createCompany, insertAgent, insertIssue, insertProject, schema, testDb, updateRow } from "../helpers/fixtures";

/** Whether `condition` holds now, as a guard evaluates it: on the company's shard, inside its command. */
async function holds(companyId: string, condition: SQL) {
  const rows = await onShardOf(testDb(), companyId, () => testDb().all<{ held: number }>(sql`SELECT CASE WHEN ${condition} THEN 1 ELSE 0 END AS held`));
  return rows[0]?.held === 1;
}

describe("guards", () => {
  it("a row guard holds while the row has exactly the values, null matching only NULL", async () => {
    const company = await createCompany();
    const agent = await insertAgent(company.id);
    const issue = await insertIssue(company.id, { assigneeAgentId: agent.id });
    const issues = schema.issues;

    expect(await holds(company.id, rowExists(issues, { id: issue.id, status: "todo", checkoutRunId: null, assigneeAgentId: agent.id }))).toBe(true);
    expect(await holds(company.id, rowExists(issues, { id: issue.id, status: "in_progress" }))).toBe(false);
    expect(await holds(company.id, rowExists(issues, { id: issue.id, assigneeAgentId: null }))).toBe(false);
    expect(await holds(company.id, rowExists(issues, { id: issue.id, checkoutRunId: "some-run" }))).toBe(false);
    expect(await holds(company.id, noRowExists(issues, { id: issue.id, assigneeAgentId: null }))).toBe(true);

    await updateRow(issues, issue.id, { assigneeAgentId: null });
    expect(await holds(company.id, rowExists(issues, { id: issue.id, assigneeAgentId: null }))).toBe(true);
    expect(await holds(company.id, rowExists(issues, { id: issue.id, assigneeAgentId: agent.id }))).toBe(false);
  });

  it("a version guard fails once the row's version moved on", async () => {
    const company = await createCompany();
    const issue = await insertIssue(company.id);
    const [{ version }] = await testDb().select({ version: schema.issues.version }).from(schema.issues).where(eq(schema.issues.id, issue.id));

    expect(await holds(company.id, sameVersion(schema.issues, { id: issue.id, version }))).toBe(true);
    await updateRow(schema.issues, issue.id, { version: version + 1 });
    expect(await holds(company.id, sameVersion(schema.issues, { id: issue.id, version }))).toBe(false);
    expect(await holds(company.id, sameVersion(schema.issues, { id: crypto.randomUUID(), version: version + 1 }))).toBe(false);
  });

  it("a guard takes a drizzle condition for what values cannot say", async () => {
    const company = await createCompany();
    const project = await insertProject(company.id);
    const paused = and(eq(schema.projects.id, project.id), isNotNull(schema.projects.pausedAt))!;

    expect(await holds(company.id, noRowExists(schema.projects, paused))).toBe(true);
    await updateRow(schema.projects, project.id, { pausedAt: new Date().toISOString() });
    expect(await holds(company.id, noRowExists(schema.projects, paused))).toBe(false);
  });

  it("a guard with no values, an unknown field or an undefined value is refused, not widened", () => {
    expect(() => rowMatches(schema.issues, {})).toThrow(/at least one/);
    expect(() => rowMatches(schema.issues, { nope: 1 } as never)).toThrow(/No column nope/);
    expect(() => rowMatches(schema.issues, { id: "x", assigneeAgentId: undefined })).toThrow(/undefined/);
  });
});

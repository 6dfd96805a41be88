// Schedule triggers fired by the Worker's cron tick at fixed instants (deterministic: the tick is
// called with the time, the triggers' next slots are set in the past). Times are in 2020 so no
// trigger of another test, scheduled from the real clock, is ever due at them.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { get, patch, post, unique } from "../helpers/api";
import { createCompany, insertAgent, schema, updateRow } from "../helpers/fixtures";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/index";

/** The Worker's own `scheduled` handler, as the Cron Trigger calls it, at a fixed time. */
async function tick(iso: string) {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ scheduledTime: new Date(iso), cron: "* * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

// The storage is shared with other files whose ticks run at the real time: archive what a test
// scheduled, so its 2020 slots are never due for them.
const scheduled: Array<{ companyId: string; routineId: string }> = [];
afterEach(async () => {
  for (const { companyId, routineId } of scheduled.splice(0)) {
    await updateRow(schema.companies, companyId, { status: "active" });
    await patch(`/api/routines/${routineId}`, { status: "archived" });
  }
});

async function scheduledRoutine(trigger: { cronExpression: string; timezone?: string }, routine: Record<string, unknown> = {}) {
  const company = await createCompany();
  const agent = await insertAgent(company.id, { name: unique("Scheduled") });
  const created = await post(`/api/companies/${company.id}/routines`, {
    title: "Tick {{slot}}",
    variables: [{ name: "slot", defaultValue: "x" }],
    assigneeAgentId: agent.id,
    ...routine,
  });
  expect(created.status).toBe(201);
  scheduled.push({ companyId: company.id, routineId: created.body.id });
  const t = await post(`/api/routines/${created.body.id}/triggers`, { kind: "schedule", ...trigger });
  expect(t.status).toBe(201);
  return { company, agent, routine: created.body, trigger: t.body };
}

/** Puts the trigger's next slot at `iso` (as if the schedule had been running since then). */
const dueAt = (triggerId: string, iso: string) => updateRow(schema.routineTriggers, triggerId, { nextRunAt: iso });

const runs = async (routineId: string) => (await get(`/api/routines/${routineId}/runs?limit=200`)).body as any[];
const nextRunAt = async (routineId: string, triggerId: string) =>
  (await get(`/api/routines/${routineId}`)).body.triggers.find((t: any) => t.id === triggerId).nextRunAt;

describe("cron tick", () => {
  it("fires America/New_York and Asia/Kolkata schedules at the right UTC instants across the DST change, once per slot", async () => {
    const ny = await scheduledRoutine({ cronExpression: "0 9 * * *", timezone: "America/New_York" });
    const india = await scheduledRoutine({ cronExpression: "0 9 * * *", timezone: "Asia/Kolkata" });
    // 09:00 EDT on Saturday 2020-10-31 is 13:00 UTC; New York leaves DST on Sunday 2020-11-01.
    await dueAt(ny.trigger.id, "2020-10-31T13:00:00.000Z");
    // 09:00 IST is 03:30 UTC (India has no DST).
    await dueAt(india.trigger.id, "2020-11-01T03:30:00.000Z");

    await tick("2020-10-31T12:59:00.000Z");
    expect(await runs(ny.routine.id)).toEqual([]);

    await tick("2020-10-31T13:00:00.000Z");
    const first = await runs(ny.routine.id);
    expect(first).toEqual([
      expect.objectContaining({
        source: "schedule",
        triggerId: ny.trigger.id,
        status: "issue_created",
        triggerPayload: { scheduledFor: "2020-10-31T13:00:00.000Z" },
      }),
    ]);
    // The next 09:00 in New York is in EST: 14:00 UTC.
    expect(await nextRunAt(ny.routine.id, ny.trigger.id)).toBe("2020-11-01T14:00:00.000Z");
    expect(await runs(india.routine.id)).toEqual([]);

    // The same tick again, and two overlapping ticks: nothing more.
    await tick("2020-10-31T13:00:00.000Z");
    await Promise.all([tick("2020-10-31T13:00:30.000Z"), tick("2020-10-31T13:00:30.000Z")]);
    expect((await runs(ny.routine.id)).length).toBe(1);

    await tick("2020-11-01T03:30:00.000Z");
    expect((await runs(india.routine.id)).map((r) => r.triggerPayload.scheduledFor)).toEqual(["2020-11-01T03:30:00.000Z"]);
    expect(await nextRunAt(india.routine.id, india.trigger.id)).toBe("2020-11-02T03:30:00.000Z");

    // 13:00 UTC was 09:00 the day before; now it is 08:00 in New York: nothing.
    await tick("2020-11-01T13:00:30.000Z");
    expect((await runs(ny.routine.id)).length).toBe(1);
    await tick("2020-11-01T14:00:30.000Z");
    const after = await runs(ny.routine.id);
    expect(after.length).toBe(2);
    expect(after[0]).toMatchObject({
      triggerPayload: { scheduledFor: "2020-11-01T14:00:00.000Z" },
      status: "coalesced",
      linkedIssueId: first[0].linkedIssueId,
    });
  });

  it("a local time skipped by the spring-forward change fires at the first valid time after it", async () => {
    const { routine, trigger } = await scheduledRoutine({ cronExpression: "30 2 * * *", timezone: "America/New_York" });
    // 02:30 EST on 2020-03-07 is 07:30 UTC; on 2020-03-08 02:30 does not exist (clocks jump to 03:00 EDT).
    await dueAt(trigger.id, "2020-03-07T07:30:00.000Z");
    await tick("2020-03-07T07:30:05.000Z");
    expect((await runs(routine.id)).length).toBe(1);
    expect(await nextRunAt(routine.id, trigger.id)).toBe("2020-03-08T07:30:00.000Z"); // 03:30 EDT
  });

  it("skip_missed fires once for the newest missed slot; enqueue_missed_with_cap fires the newest 25", async () => {
    const skip = await scheduledRoutine({ cronExpression: "0 * * * *" }, { concurrencyPolicy: "always_enqueue" });
    const cap = await scheduledRoutine({ cronExpression: "0 * * * *" }, { concurrencyPolicy: "always_enqueue", catchUpPolicy: "enqueue_missed_with_cap" });
    for (const { trigger } of [skip, cap]) await dueAt(trigger.id, "2020-06-01T00:00:00.000Z");
    // 31 hourly slots (00:00 on the 1st to 06:00 on the 2nd) were missed.
    await tick("2020-06-02T06:10:00.000Z");

    const skipped = await runs(skip.routine.id);
    expect(skipped.map((r) => r.triggerPayload.scheduledFor)).toEqual(["2020-06-02T06:00:00.000Z"]);
    const capped = await runs(cap.routine.id);
    expect(capped.length).toBe(25);
    const slots = capped.map((r) => r.triggerPayload.scheduledFor).sort();
    expect(slots[0]).toBe("2020-06-01T06:00:00.000Z");
    expect(slots[24]).toBe("2020-06-02T06:00:00.000Z");
    expect(capped.every((r) => r.status === "issue_created")).toBe(true);
    for (const { routine, trigger } of [skip, cap]) expect(await nextRunAt(routine.id, trigger.id)).toBe("2020-06-02T07:00:00.000Z");
    await tick("2020-06-02T06:10:00.000Z");
    expect((await runs(cap.routine.id)).length).toBe(25);
  });

  it("a schedule that has ended fires its last slot, then stops, without holding up the company's other schedules", async () => {
    const ended = await scheduledRoutine({ cronExpression: "0 9 * * *" });
    const company = ended.company;
    const agent = await insertAgent(company.id);
    const other = await post(`/api/companies/${company.id}/routines`, { title: "Other", assigneeAgentId: agent.id });
    scheduled.push({ companyId: company.id, routineId: other.body.id });
    const otherTrigger = await post(`/api/routines/${other.body.id}/triggers`, { kind: "schedule", cronExpression: "0 9 * * *" });
    // Only 2020-01-01T09:00 (seven fields: with seconds and the year).
    await updateRow(schema.routineTriggers, ended.trigger.id, { cronExpression: "0 0 9 1 1 * 2020", nextRunAt: "2020-01-01T09:00:00.000Z" });
    await dueAt(otherTrigger.body.id, "2020-01-01T09:00:00.000Z");
    await tick("2020-01-01T09:00:30.000Z");
    expect((await runs(ended.routine.id)).length).toBe(1);
    expect((await runs(other.body.id)).length).toBe(1);
    expect(await nextRunAt(ended.routine.id, ended.trigger.id)).toBeNull();
    expect(await nextRunAt(other.body.id, otherTrigger.body.id)).toBe("2020-01-02T09:00:00.000Z");
    // The routine can still be edited.
    expect((await patch(`/api/routines/${ended.routine.id}`, { status: "paused" })).status).toBe(200);
  });

  it("paused routines, disabled triggers and paused companies do not fire", async () => {
    const paused = await scheduledRoutine({ cronExpression: "*/5 * * * *" });
    const disabled = await scheduledRoutine({ cronExpression: "*/5 * * * *" });
    const company = await scheduledRoutine({ cronExpression: "*/5 * * * *" });
    await patch(`/api/routines/${paused.routine.id}`, { status: "paused" });
    await patch(`/api/routine-triggers/${disabled.trigger.id}`, { enabled: false });
    await updateRow(schema.companies, company.company.id, { status: "paused" });
    for (const { trigger } of [paused, disabled, company]) await dueAt(trigger.id, "2020-08-01T10:00:00.000Z");
    await tick("2020-08-01T10:00:30.000Z");
    for (const { routine } of [paused, disabled, company]) expect(await runs(routine.id)).toEqual([]);
    // The paused company's schedule stays due and fires (once, skip_missed) when it is active again.
    await updateRow(schema.companies, company.company.id, { status: "active" });
    await tick("2020-08-01T11:00:30.000Z");
    expect((await runs(company.routine.id)).map((r) => r.triggerPayload.scheduledFor)).toEqual(["2020-08-01T11:00:00.000Z"]);
  });
});

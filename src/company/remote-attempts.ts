// Starting runs that execute outside the company object — handed to a GatewayRunObject
// (`remote_gateway`) or pushed to a connected runner (`process`, `<runtime>_local`) — and what
// happens when they end early (cancel, pause, timeout: stop them) or their runner disappears.
import { and, eq } from "drizzle-orm";
import { schema } from "../db/client";
import { inIds } from "../db/id-list";
import type { Statement } from "../db/batch";
import type { CommandContext } from "./command";
import type { DispatcherHost } from "./dispatcher";
import { backoffSeconds, endRunStatements, MAX_RETRIES, type RunRow } from "../domain/runs/lifecycle";
import { runEvent } from "../domain/runs/events";
import { agentContext, runInvocationBody } from "../domain/runs/invocation";
import { storedDesiredSkills } from "../domain/agents/skills";
import { readGatewayConfig } from "../adapters/remote-gateway";
import { gatewayRunObject } from "./gateway-run";
import { RUNNER_PROTOCOL_VERSION, runnerStillAuthorized, type RunnerAttachment } from "./runners";

/** The service's own deadline past the gateway's timeout (the gateway object ends the run first; this is the net). */
const GATEWAY_DEADLINE_SLACK_SEC = 300;
/** Run tokens of runner runs without a timeout live this long. */
const RUNNER_TOKEN_SEC = 6 * 3600;

/** How long a disconnected runner's runs wait for it (or another runner) to reclaim them. */
export const runnerGraceMs = (env: Env) => {
  const configured = Number((env as unknown as Record<string, unknown>).RUNNER_GRACE_MS);
  return Number.isFinite(configured) && configured >= 0 ? configured : 30_000;
};

/** How long a runner has to acknowledge run.start (run.started) before it is sent again or handed to another runner. */
export const RUN_START_ACK_MS = 10_000;
export const runStartAckMs = (env: Env) => {
  const configured = Number((env as unknown as Record<string, unknown>).RUNNER_ACK_MS);
  return Number.isFinite(configured) && configured >= 0 ? configured : RUN_START_ACK_MS;
};

const isoAfter = (now: string, seconds: number) => new Date(Date.parse(now) + seconds * 1000).toISOString();

/** Hands a `remote_gateway` run to its GatewayRunObject; true when the run ended here (could not start). */
export async function attemptGatewayRun(host: DispatcherHost, ctx: CommandContext, run: RunRow, adapterConfig: Record<string, unknown>): Promise<boolean> {
  const config = readGatewayConfig(adapterConfig);
  try {
    const invocation = await runInvocationBody(host.env, host.db, run, {}, null, config.timeoutSec + GATEWAY_DEADLINE_SLACK_SEC);
    const { context } = agentContext(run);
    const body: Record<string, unknown> = {
      input: context,
      context: { runId: run.id, agentId: run.agentId, companyId: run.companyId, issueId: run.issueId, wakeReason: run.reason },
      ...(config.instructions ? { instructions: config.instructions } : {}),
      // The run's token goes only to a remote that was given a callback URL (it then calls this API back).
      ...(config.paperclipApiUrl ? { paperclipApiUrl: config.paperclipApiUrl, apiToken: invocation.apiToken } : {}),
    };
    await gatewayRunObject(host.env, run.id).start({
      companyId: run.companyId,
      runId: run.id,
      agentId: run.agentId,
      issueId: run.issueId,
      adapterConfig,
      body,
      deadline: Date.now() + config.timeoutSec * 1000,
    });
  } catch (err) {
    return host.serialise(async () => {
      await ctx.batch(endRunStatements(ctx, run.id, { status: "failed", errorCode: "adapter_refused", error: `Could not start the gateway run: ${(err as Error)?.message ?? err}` }));
      return true;
    });
  }
  host.storage.remoteRuns.add({ runId: run.id, kind: "gateway", agentId: run.agentId, runnerId: null, startedAt: Date.now() });
  return host.serialise(async () => {
    const r = schema.heartbeatRuns;
    await ctx.batch([
      ctx.db.update(r).set({ deadlineAt: isoAfter(ctx.now, config.timeoutSec + GATEWAY_DEADLINE_SLACK_SEC), updatedAt: ctx.now }).where(and(eq(r.id, run.id), eq(r.status, "running"))),
      runEvent(ctx, run, "status", `Handed to the remote gateway ${config.apiBaseUrl} (timeout ${config.timeoutSec} s)`),
    ]);
    return false;
  });
}

/** Pushes a run to the least busy runner serving its agent; true when the run ended here. */
const runnerTimeoutSec = (adapterConfig: Record<string, unknown>) => (typeof adapterConfig.timeoutSec === "number" && adapterConfig.timeoutSec > 0 ? adapterConfig.timeoutSec : 0);

/**
 * Sends run.start (with a fresh run token and resolved env) to `runner`, after checking again the
 * credential it connected with; true when sent (then awaiting its run.started).
 */
async function sendRunStart(host: DispatcherHost, run: RunRow, adapterConfig: Record<string, unknown>, runner: RunnerAttachment): Promise<boolean> {
  if (!(await runnerStillAuthorized(host.db, run.companyId, runner))) {
    // Revoked key, removed member, terminated agent: no more runs (or secrets) for this socket.
    host.runners.close(runner.runnerId, 4003, "The runner's credential is no longer valid");
    return false;
  }
  const timeoutSec = runnerTimeoutSec(adapterConfig);
  const invocation = await runInvocationBody(host.env, host.db, run, {}, adapterConfig.env, timeoutSec > 0 ? timeoutSec + 300 : RUNNER_TOKEN_SEC, storedDesiredSkills(adapterConfig));
  const { env: _bindings, paperclipSkillSync: _skills, ...config } = adapterConfig;
  const sent = host.runners.send(runner.runnerId, {
    type: "run.start",
    version: RUNNER_PROTOCOL_VERSION,
    runId: run.id,
    agentId: run.agentId,
    companyId: run.companyId,
    adapterType: run.adapterType,
    adapterConfig: config,
    context: invocation.context,
    env: invocation.env,
    apiUrl: host.env.AUTH_PUBLIC_BASE_URL?.trim() ? invocation.apiUrl : runner.apiUrl,
    apiToken: invocation.apiToken,
    skills: invocation.skills,
  });
  // Before anything else can run: the runner's run.started cannot arrive before this is noted.
  if (sent) host.storage.remoteRuns.startSent(run.id, Date.now());
  return sent;
}

export async function attemptRunnerRun(host: DispatcherHost, ctx: CommandContext, run: RunRow, adapterConfig: Record<string, unknown>): Promise<boolean> {
  const runner = host.runners.pick(run.agentId);
  const timeoutSec = runnerTimeoutSec(adapterConfig);
  // Bound before anything is awaited, so the other runs of this dispatch see this runner as busier.
  host.storage.remoteRuns.add({ runId: run.id, kind: "runner", agentId: run.agentId, runnerId: runner?.runnerId ?? null, startedAt: Date.now() });
  let sent = false;
  if (runner) {
    try {
      sent = await sendRunStart(host, run, adapterConfig, runner);
    } catch (err) {
      host.storage.remoteRuns.forget(run.id);
      return host.serialise(async () => {
        await ctx.batch(endRunStatements(ctx, run.id, { status: "failed", errorCode: "adapter_refused", error: `Could not prepare the run: ${(err as Error)?.message ?? err}` }));
        return true;
      });
    }
  }
  if (!sent) {
    // No runner could take it after all (it left, went silent, or lost its credential): lost now (retry policy).
    host.storage.remoteRuns.markRunLost(run.id, Date.now() - runnerGraceMs(host.env));
    return false;
  }
  return host.serialise(async () => {
    const r = schema.heartbeatRuns;
    await ctx.batch([
      ctx.db.update(r).set({ deadlineAt: timeoutSec > 0 ? isoAfter(ctx.now, timeoutSec + 300) : null, updatedAt: ctx.now }).where(and(eq(r.id, run.id), eq(r.status, "running"))),
      runEvent(ctx, run, "status", `Sent to runner ${runner!.name} (${runner!.runnerId})`),
    ]);
    return false;
  });
}

/**
 * Runner runs whose run.start was not acknowledged (run.started, or any report on the run) within
 * runStartAckMs: sent once more to the same runner while its socket is open; then, or when it is
 * gone, handed to another live runner serving the agent (the first is told run.cancel, in case it
 * did start it); with none, the run is lost now (the retry policy, after the grace period) instead
 * of waiting for the socket to go stale.
 */
export async function resendUnacknowledgedStarts(host: DispatcherHost, ctx: CommandContext): Promise<void> {
  const due = host.storage.remoteRuns.unacknowledged(Date.now() - runStartAckMs(host.env));
  if (!due.length) return;
  const r = schema.heartbeatRuns;
  const rows = await host.db
    .select({ run: r, adapterConfig: schema.agents.adapterConfig })
    .from(r)
    .innerJoin(schema.agents, eq(schema.agents.id, r.agentId))
    .where(inIds(r.id, due.map((t) => t.runId)));
  const byId = new Map(rows.map((row) => [row.run.id, row]));
  const events: Statement[] = [];
  const seconds = Math.round(runStartAckMs(host.env) / 1000);
  for (const tracked of due) {
    const row = byId.get(tracked.runId);
    if (!row || row.run.status !== "running") continue; // ended meanwhile: the sweep stops it
    const { run, adapterConfig } = row;
    const current = tracked.runnerId ? host.runners.find(tracked.runnerId) : null;
    try {
      if (current && tracked.startSends < 2 && (await sendRunStart(host, run, adapterConfig, current))) {
        events.push(runEvent(ctx, run, "status", `Runner ${current.name} (${current.runnerId}) did not acknowledge run.start within ${seconds} s; sent again`));
        continue;
      }
      const other = host.runners.pick(run.agentId, tracked.runnerId);
      if (tracked.runnerId) host.runners.send(tracked.runnerId, { type: "run.cancel", runId: run.id });
      if (other) {
        host.storage.remoteRuns.add({ runId: run.id, kind: "runner", agentId: run.agentId, runnerId: other.runnerId, startedAt: tracked.startedAt });
        if (await sendRunStart(host, run, adapterConfig, other)) {
          events.push(runEvent(ctx, run, "status", `run.start not acknowledged within ${seconds} s; handed to runner ${other.name} (${other.runnerId})`));
          continue;
        }
      }
      host.storage.remoteRuns.markRunLost(run.id, Date.now());
      events.push(runEvent(ctx, run, "status", `run.start not acknowledged within ${seconds} s and no other runner could take it`));
    } catch (err) {
      console.error(`sending run ${run.id} again failed`, err);
      host.storage.remoteRuns.markRunLost(run.id, Date.now());
    }
  }
  if (events.length) await host.serialise(() => ctx.batch(events));
}

/**
 * Runner runs lost longer than the grace period (lost at or before `lostBefore`, ms): the attempt
 * fails with `process_lost` and goes through the retry policy — scheduled again with back-off
 * (any runner serving the agent takes it), failed after MAX_RETRIES.
 */
export function lostRunnerRunStatements(ctx: CommandContext, live: RunRow[], lostBefore: number): { statements: Statement[]; runIds: Set<string>; ended: boolean } {
  const r = schema.heartbeatRuns;
  const statements: Statement[] = [];
  const runIds = new Set<string>();
  let ended = false;
  const byId = new Map(live.map((run) => [run.id, run]));
  for (const tracked of ctx.storage.remoteRuns.all()) {
    if (tracked.kind !== "runner" || tracked.lostAt === null || tracked.lostAt > lostBefore) continue;
    runIds.add(tracked.runId);
    const run = byId.get(tracked.runId);
    if (!run || run.status !== "running") continue;
    const error = "The runner executing this run disconnected and did not come back";
    const retryCount = run.retryCount + 1;
    if (retryCount > MAX_RETRIES) {
      statements.push(...endRunStatements(ctx, run.id, { status: "failed", errorCode: "process_lost", error: `${error} (${retryCount} attempts)` }));
      ended = true;
    } else {
      const nextRetryAt = isoAfter(ctx.now, backoffSeconds(retryCount));
      statements.push(
        ctx.db.update(r).set({ status: "scheduled_retry", retryCount, nextRetryAt, deadlineAt: null, errorCode: "process_lost", error, lastActivityAt: ctx.now, updatedAt: ctx.now }).where(and(eq(r.id, run.id), eq(r.status, "running"))),
        runEvent(ctx, run, "status", `${error}; retry ${retryCount} at ${nextRetryAt}`, { errorCode: "process_lost" }),
      );
    }
  }
  return { statements, runIds, ended };
}

/**
 * Runs handed out that are no longer running (cancelled, paused, timed out, finished): gateway
 * runs are stopped remotely, runners are told `run.cancel`; the object forgets them.
 */
export async function sweepRemoteRuns(host: Pick<DispatcherHost, "env" | "db" | "storage" | "runners">): Promise<void> {
  try {
    await sweep(host);
  } catch (err) {
    // Best effort: the next sweep (or the run's own deadline) catches what this one missed.
    console.error("sweeping remote runs failed", err);
  }
}

async function sweep(host: Pick<DispatcherHost, "env" | "db" | "storage" | "runners">): Promise<void> {
  const tracked = host.storage.remoteRuns.all();
  if (!tracked.length) return;
  const r = schema.heartbeatRuns;
  const rows = await host.db.select({ id: r.id, status: r.status }).from(r).where(inIds(r.id, tracked.map((t) => t.runId)));
  const status = new Map(rows.map((row) => [row.id, row.status]));
  await Promise.all(
    tracked
      .filter((t) => status.get(t.runId) !== "running")
      .map(async (t) => {
        host.storage.remoteRuns.forget(t.runId);
        if (t.kind === "gateway") await gatewayRunObject(host.env, t.runId).cancel().catch((err) => console.error(`stopping gateway run ${t.runId} failed`, err));
        else if (t.runnerId) host.runners.send(t.runnerId, { type: "run.cancel", runId: t.runId });
      }),
  );
}

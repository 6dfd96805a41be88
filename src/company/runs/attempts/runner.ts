// Running a runner agent's run (`process`, `<runtime>_local`): pushed as run.start to the least busy
// connected runner serving the agent (src/company/runs/runners.ts), sent again or handed to another
// runner when it is not acknowledged in time.
import { and, eq } from "drizzle-orm";
import { schema } from "../../../db/client";
import { inIds } from "../../../db/id-list";
import type { Statement } from "../../../db/batch";
import type { CommandContext } from "../../command";
import { endRunStatements, type RunRow } from "../../../domain/runs/lifecycle";
import { runEvent } from "../../../domain/runs/events";
import { runInvocationBody } from "../../../domain/runs/invocation";
import { serviceApiUrl } from "../../../config";
import { loadPromptFacts } from "../../../domain/runs/prompt-facts";
import { buildPrompt } from "../../../domain/runs/prompt";
import { sessionToResume, taskKeyOf } from "../../../domain/runs/sessions";
import { storedDesiredSkills } from "../../../domain/agents/skills";
import { runnerStillAuthorized, type RunnerAttachment } from "../runners";
import { RUNNER_PROTOCOL_VERSION } from "../../../protocol/runner";
import { runtimeSettings } from "../timing";
import { readRunnerConfig } from "../../../adapters/runner";
import type { DispatcherHost } from "../host";

/** Run tokens of runner runs without a timeout live this long. */
const RUNNER_TOKEN_SEC = 6 * 3600;

const isoAfter = (now: string, seconds: number) => new Date(Date.parse(now) + seconds * 1000).toISOString();

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
  const { timeoutSec, promptTemplate } = readRunnerConfig(adapterConfig);
  const [invocation, facts, session] = await Promise.all([
    runInvocationBody(host.env, host.db, run, {}, adapterConfig.env, timeoutSec > 0 ? timeoutSec + 300 : RUNNER_TOKEN_SEC, storedDesiredSkills(adapterConfig)),
    loadPromptFacts(host.db, run, serviceApiUrl(host.env)),
    sessionToResume(host.db, run),
  ]);
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
    prompt: buildPrompt({ ...facts, apiUrl: invocation.apiUrl }, promptTemplate),
    taskKey: taskKeyOf(run),
    session,
  });
  // Before anything else can run: the runner's run.started cannot arrive before this is noted.
  if (sent) host.storage.remoteRuns.startSent(run.id, Date.now());
  return sent;
}

/** Pushes a run to the least busy runner serving its agent; true when the run ended here. */
export async function attemptRunnerRun(host: DispatcherHost, ctx: CommandContext, run: RunRow, adapterConfig: Record<string, unknown>): Promise<boolean> {
  const runner = host.runners.pick(run.agentId);
  const { timeoutSec } = readRunnerConfig(adapterConfig);
  // Bound before anything is awaited, so the other runs of this dispatch see this runner as busier.
  host.storage.remoteRuns.add({ runId: run.id, kind: "runner", agentId: run.agentId, runnerId: runner?.runnerId ?? null, startedAt: Date.now() });
  let sent = false;
  if (runner) {
    try {
      sent = await sendRunStart(host, run, adapterConfig, runner);
    } catch (err) {
      host.storage.remoteRuns.forget(run.id);
      return host.serialise(async () => {
        await ctx.batch(
          endRunStatements(ctx, run.id, {
            status: "failed",
            errorCode: "adapter_refused",
            error: `Could not prepare the run: ${(err as Error)?.message ?? err}`,
          }),
        );
        return true;
      });
    }
  }
  if (!sent) {
    // No runner could take it after all (it left, went silent, or lost its credential): lost now (retry policy).
    host.storage.remoteRuns.markRunLost(run.id, Date.now() - runtimeSettings(host.env).runnerGraceMs);
    return false;
  }
  return host.serialise(async () => {
    const r = schema.heartbeatRuns;
    await ctx.batch([
      ctx.db
        .update(r)
        .set({ deadlineAt: timeoutSec > 0 ? isoAfter(ctx.now, timeoutSec + 300) : null, updatedAt: ctx.now })
        .where(and(eq(r.id, run.id), eq(r.status, "running"))),
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
  const due = host.storage.remoteRuns.unacknowledged(Date.now() - runtimeSettings(host.env).runStartAckMs);
  if (!due.length) return;
  const r = schema.heartbeatRuns;
  const rows = await host.db
    .select({ run: r, adapterConfig: schema.agents.adapterConfig })
    .from(r)
    .innerJoin(schema.agents, eq(schema.agents.id, r.agentId))
    .where(
      inIds(
        r.id,
        due.map((t) => t.runId),
      ),
    );
  const byId = new Map(rows.map((row) => [row.run.id, row]));
  const events: Statement[] = [];
  const seconds = Math.round(runtimeSettings(host.env).runStartAckMs / 1000);
  for (const tracked of due) {
    const row = byId.get(tracked.runId);
    if (row?.run.status !== "running") continue; // ended meanwhile: the sweep stops it
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

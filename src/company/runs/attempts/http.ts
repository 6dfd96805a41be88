// Running an `http` agent's run: one call to the agent's endpoint, its answer recorded serialised
// (accepted with a completion deadline, retried with back-off, or ended).
import { and, eq } from "drizzle-orm";
import { schema } from "../../../db/client";
import type { CommandContext } from "../../command";
import { backoffSeconds, endRunStatements, MAX_RETRIES, type RunRow } from "../../../domain/runs/lifecycle";
import { invokeHttpAgent, type HttpOutcome } from "../../../adapters/http/invoke";
import { readHttpConfig } from "../../../adapters/http/config";
import { runInvocationBody } from "../../../domain/runs/invocation";
import { storedDesiredSkills } from "../../../domain/agents/skills";
import { recordRunUsage } from "../../../domain/runs/usage";
import { runEvent } from "../../../domain/runs/events";
import { systemContext, type DispatcherHost } from "../host";

/** Calls the agent's endpoint once and records the answer (at the time of the answer); true when the run ended. */
export async function attemptHttpRun(host: DispatcherHost, ctx: CommandContext, run: RunRow, adapterConfig: Record<string, unknown>): Promise<boolean> {
  const config = readHttpConfig(adapterConfig);
  let outcome: HttpOutcome;
  try {
    const body = await runInvocationBody(
      host.env,
      host.db,
      run,
      config.payloadTemplate,
      adapterConfig.env,
      config.completionTimeoutSec,
      storedDesiredSkills(adapterConfig),
    );
    outcome = await invokeHttpAgent(config, run.id, body, { exposure: host.env.SERVER_EXPOSURE === "public" ? "public" : "private" });
  } catch (err) {
    outcome = { kind: "failed", errorCode: "adapter_refused", error: `Could not prepare the run: ${(err as Error)?.message ?? err}` };
  }
  return host.serialise(() => recordOutcome(systemContext(host, ctx.companyId), run, outcome, config.completionTimeoutSec));
}

async function recordOutcome(ctx: CommandContext, run: RunRow, outcome: HttpOutcome, completionTimeoutSec: number): Promise<boolean> {
  const r = schema.heartbeatRuns;
  const stillRunning = and(eq(r.id, run.id), eq(r.status, "running"));
  const current = (await ctx.db.select({ status: r.status, retryCount: r.retryCount }).from(r).where(eq(r.id, run.id)))[0];
  if (current?.status !== "running") return false; // cancelled (or completed) while the call was out
  switch (outcome.kind) {
    case "accepted": {
      const deadlineAt = new Date(Date.parse(ctx.now) + completionTimeoutSec * 1000).toISOString();
      await ctx.batch([
        ctx.db.update(r).set({ deadlineAt, lastActivityAt: ctx.now, updatedAt: ctx.now }).where(stillRunning),
        runEvent(ctx, run, "status", "Accepted by the agent endpoint (202); waiting for completion"),
      ]);
      return false;
    }
    case "retry": {
      const retryCount = current.retryCount + 1;
      if (retryCount > MAX_RETRIES) {
        await ctx.batch(
          endRunStatements(ctx, run.id, {
            status: "failed",
            errorCode: "adapter_unavailable",
            error: `Agent endpoint answered HTTP ${outcome.status} ${retryCount} times`,
          }),
        );
        return true;
      }
      const wait = outcome.retryAfterSec ?? backoffSeconds(retryCount);
      const nextRetryAt = new Date(Date.parse(ctx.now) + wait * 1000).toISOString();
      await ctx.batch([
        ctx.db.update(r).set({ status: "scheduled_retry", retryCount, nextRetryAt, lastActivityAt: ctx.now, updatedAt: ctx.now }).where(stillRunning),
        runEvent(ctx, run, "status", `Agent endpoint answered HTTP ${outcome.status}; retry ${retryCount} at ${nextRetryAt}`),
      ]);
      return false;
    }
    case "succeeded": {
      const statements = endRunStatements(ctx, run.id, { status: "succeeded", summary: outcome.summary, usage: outcome.usage, result: outcome.result });
      await ctx.batch(statements);
      await recordRunUsage(ctx, run, outcome.usage);
      return true;
    }
    case "failed":
      await ctx.batch(endRunStatements(ctx, run.id, { status: "failed", errorCode: outcome.errorCode, error: outcome.error }));
      return true;
    case "timed_out":
      await ctx.batch(endRunStatements(ctx, run.id, { status: "timed_out", errorCode: "timeout", error: outcome.error }));
      return true;
  }
}

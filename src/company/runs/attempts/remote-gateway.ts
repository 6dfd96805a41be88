// Running a `remote_gateway` agent's run: handed to its GatewayRunObject (src/company/gateway-run.ts),
// which holds the remote event stream and reports back through run.remote.report.
import { and, eq } from "drizzle-orm";
import { schema } from "../../../db/client";
import type { CommandContext } from "../../command";
import { endRunStatements, type RunRow } from "../../../domain/runs/lifecycle";
import { runEvent } from "../../../domain/runs/events";
import { agentContext, runInvocationBody } from "../../../domain/runs/invocation";
import { readGatewayConfig } from "../../../adapters/remote-gateway/config";
import { gatewayRunObject } from "../../client";
import type { DispatcherHost } from "../host";

/** The service's own deadline past the gateway's timeout (the gateway object ends the run first; this is the net). */
const GATEWAY_DEADLINE_SLACK_SEC = 300;

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
      await ctx.batch(
        endRunStatements(ctx, run.id, {
          status: "failed",
          errorCode: "adapter_refused",
          error: `Could not start the gateway run: ${(err as Error)?.message ?? err}`,
        }),
      );
      return true;
    });
  }
  host.storage.remoteRuns.add({ runId: run.id, kind: "gateway", agentId: run.agentId, runnerId: null, startedAt: Date.now() });
  return host.serialise(async () => {
    const r = schema.heartbeatRuns;
    await ctx.batch([
      ctx.db
        .update(r)
        .set({ deadlineAt: isoAfter(ctx.now, config.timeoutSec + GATEWAY_DEADLINE_SLACK_SEC), updatedAt: ctx.now })
        .where(and(eq(r.id, run.id), eq(r.status, "running"))),
      runEvent(ctx, run, "status", `Handed to the remote gateway ${config.apiBaseUrl} (timeout ${config.timeoutSec} s)`),
    ]);
    return false;
  });
}

// Running a `remote_gateway` agent's run: handed to its GatewayRunObject (src/company/gateway-run.ts),
// which holds the remote event stream and reports back through run.remote.report.
import type { CommandContext } from "../../command";
import type { RunRow } from "../../../domain/runs/lifecycle";
import { agentContext, runInvocationBody } from "../../../domain/runs/invocation";
import { readGatewayConfig } from "../../../adapters/remote-gateway/config";
import { gatewayRunObject } from "../../client";
import type { DispatcherHost } from "../host";
import { HAND_OFF_DEADLINE_SLACK_SEC, handOffRun } from "./hand-off";

/** Hands a `remote_gateway` run to its GatewayRunObject; true when the run ended here (could not start). */
export async function attemptGatewayRun(host: DispatcherHost, ctx: CommandContext, run: RunRow, adapterConfig: Record<string, unknown>): Promise<boolean> {
  const config = readGatewayConfig(adapterConfig);
  return handOffRun(host, ctx, run, {
    kind: "gateway",
    timeoutSec: config.timeoutSec,
    what: "the gateway run",
    started: `Handed to the remote gateway ${config.apiBaseUrl} (timeout ${config.timeoutSec} s)`,
    start: async () => {
      const invocation = await runInvocationBody(host.env, host.db, run, {}, null, config.timeoutSec + HAND_OFF_DEADLINE_SLACK_SEC);
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
    },
  });
}

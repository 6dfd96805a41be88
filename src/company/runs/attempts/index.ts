// The run engine's attempts, one per place a run executes (the adapter says where: src/adapters):
// in the company object (the http adapter's call), handed to a GatewayRunObject (the remote
// gateway) or an AgentLoopObject (the edge agent's tool loop), or pushed to a connected runner. An
// attempt records its outcome through the company's commands; the adapters themselves only say
// what a run is and how to talk to its runtime.
import type { AdapterWhere } from "../../../adapters";
import type { CommandContext } from "../../command";
import type { RunRow } from "../../../domain/runs/lifecycle";
import type { DispatcherHost } from "../host";
import { attemptHttpRun } from "./http";
import { attemptGatewayRun } from "./remote-gateway";
import { attemptLoopRun } from "./loop";
import { attemptRunnerRun } from "./runner";

/** One attempt of a run the dispatcher hands out (outside the serialised section); true when the run ended here. */
export type Attempt = (host: DispatcherHost, ctx: CommandContext, run: RunRow, adapterConfig: Record<string, unknown>) => Promise<boolean>;

export const ATTEMPTS: Record<AdapterWhere, Attempt> = {
  object: attemptHttpRun,
  gateway: attemptGatewayRun,
  loop: attemptLoopRun,
  runner: attemptRunnerRun,
};

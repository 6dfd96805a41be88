// Running an `llm_api` agent's run: handed to its AgentLoopObject (src/company/agent-loop/object.ts)
// with the wake's prompt (the service's one prompt builder, tools as the way of working) and the
// conversation to continue (the runtime session of the agent and task points at it in R2).
import type { CommandContext } from "../../command";
import type { RunRow } from "../../../domain/runs/lifecycle";
import { loadPromptFacts } from "../../../domain/runs/prompt-facts";
import { buildPrompt } from "../../../domain/runs/prompt";
import { sessionToResume, taskKeyOf } from "../../../domain/runs/sessions";
import { readLlmApiConfig } from "../../../adapters/llm-api/config";
import { serviceApiUrl } from "../../../config";
import { agentLoopObject } from "../../client";
import type { DispatcherHost } from "../host";
import { handOffRun } from "./hand-off";

/** Where an agent's conversation on a task is kept between runs (one object per agent and task, overwritten). */
export const conversationKey = (run: Pick<RunRow, "companyId" | "agentId" | "issueId">) =>
  `agent-conversations/${run.companyId}/${run.agentId}/${encodeURIComponent(taskKeyOf(run))}.json`;

/** Hands an `llm_api` run to its AgentLoopObject; true when the run ended here (could not start). */
export async function attemptLoopRun(host: DispatcherHost, ctx: CommandContext, run: RunRow, adapterConfig: Record<string, unknown>): Promise<boolean> {
  const config = readLlmApiConfig(adapterConfig);
  return handOffRun(host, ctx, run, {
    kind: "loop",
    timeoutSec: config.timeoutSec,
    what: "the agent loop",
    started: `Running at the edge: ${config.provider} ${config.model} (at most ${config.maxTurns} model calls, timeout ${config.timeoutSec} s)`,
    start: async () => {
      const [facts, session] = await Promise.all([loadPromptFacts(host.db, run, serviceApiUrl(host.env)), sessionToResume(host.db, run)]);
      await agentLoopObject(host.env, run.id).start({
        companyId: run.companyId,
        runId: run.id,
        agentId: run.agentId,
        issueId: run.issueId,
        adapterType: run.adapterType,
        adapterConfig,
        prompt: buildPrompt(facts, null, "tools"),
        resume: session ? { key: session.id } : null,
        conversationKey: conversationKey(run),
        taskKey: taskKeyOf(run),
        deadline: Date.now() + config.timeoutSec * 1000,
      });
    },
  });
}

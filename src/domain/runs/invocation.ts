// What an agent receives when its run starts: the wake context, a short-lived agent JWT for this
// run, the service's API URL, and the run's environment — the agent's `adapterConfig.env` with
// secret references resolved for this run only (never stored in the run, never logged) plus the
// wake's own variables (SERVICE_APPROVAL_ID, …) — and the files of its desired skills. The
// service's own secrets are never included.
import type { Db } from "../../db/client";
import { mintAgentJwt } from "../../crypto/agent-jwt";
import { resolveEnvBindings } from "../secrets/bindings";
import type { RunRow } from "./lifecycle";
import { skillsForRun } from "../skills/delivery";
import { enabledToolNames } from "../plugins/queries";
import { serviceApiUrl } from "../../config";

/** The run's wake context as the agent sees it (variables for its environment are delivered under `env`). */
export function agentContext(run: Pick<RunRow, "context" | "reason" | "issueId">): { context: Record<string, unknown>; wakeEnv: Record<string, string> } {
  const { env: wakeEnv, ...rest } = (run.context ?? {}) as Record<string, unknown>;
  const vars: Record<string, string> = {};
  if (wakeEnv && typeof wakeEnv === "object") for (const [k, v] of Object.entries(wakeEnv)) if (v !== null && v !== undefined) vars[k] = String(v);
  return { context: { ...rest, wakeReason: run.reason ?? rest.wakeReason ?? null, issueId: run.issueId ?? null }, wakeEnv: vars };
}

/** What an agent is invoked with (the http adapter's body; a runner's run.start carries the same). */
export interface InvocationBody {
  [key: string]: unknown;
  runId: string;
  agentId: string;
  companyId: string;
  context: Record<string, unknown>;
  apiUrl: string;
  apiToken: string;
  env: Record<string, string>;
  skills: unknown[];
}

export async function runInvocationBody(
  env: Env,
  db: Db,
  run: RunRow,
  payloadTemplate: Record<string, unknown>,
  envBindings: unknown,
  completionTimeoutSec: number,
  desiredSkills: string[] = [],
): Promise<InvocationBody> {
  const [resolved, skills, pluginTools] = await Promise.all([
    resolveEnvBindings(env, db, run.companyId, (envBindings ?? null) as Record<string, unknown> | null),
    skillsForRun(env, db, run.companyId, desiredSkills),
    enabledToolNames(db),
  ]);
  const { context: wake, wakeEnv } = agentContext(run);
  // The ready plugins' tools (`<pluginKey>:<tool>`: POST /api/plugins/tools/execute, or /mcp).
  const context = { ...wake, pluginTools };
  const apiToken = await mintAgentJwt(
    env.AGENT_JWT_SECRET,
    { agentId: run.agentId, companyId: run.companyId, adapterType: run.adapterType, runId: run.id },
    // Valid while the run may still complete, and a little after.
    { lifetimeSec: completionTimeoutSec + 300 },
  );
  return {
    ...payloadTemplate,
    runId: run.id,
    agentId: run.agentId,
    companyId: run.companyId,
    context,
    apiUrl: serviceApiUrl(env),
    apiToken,
    env: { ...resolved, ...wakeEnv },
    skills,
  };
}

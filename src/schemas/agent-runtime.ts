// An agent's runtime state: the sessions its runs resume (one per task), and clearing them.
import { z } from "@hono/zod-openapi";
import { JsonObject, Timestamp } from "./common";

export const RuntimeSessionSchema = z
  .object({
    taskKey: z.string().openapi({ description: "`issue:<issueId>`, or `agent` for runs without an issue" }),
    issueId: z.string().nullable(),
    adapterType: z.string(),
    sessionId: z.string().openapi({ description: "The runtime's own session id (a CLI's session or thread)" }),
    params: JsonObject.openapi({ description: "What the session is valid for (cwd, model, …): a run with other values starts a new one" }),
    runId: z.string().nullable().openapi({ description: "The run that reported it last" }),
    updatedAt: Timestamp,
  })
  .openapi("RuntimeSession");

export const AgentRuntimeStateSchema = z
  .object({ agentId: z.string(), adapterType: z.string(), sessions: z.array(RuntimeSessionSchema) })
  .openapi("AgentRuntimeState");

export const ResetSessionSchema = z
  .object({
    taskKey: z.string().min(1).max(200).optional().openapi({ description: "Clear only this task's session (default: all of the agent's)" }),
  })
  .strict()
  .openapi("ResetSession");

export const ResetSessionResultSchema = z.object({ agentId: z.string(), cleared: z.number().int() }).openapi("ResetSessionResult");

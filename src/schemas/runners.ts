// Runners (local agent executors connected over WebSockets): the upgrade and the list of connected runners.
import { z } from "@hono/zod-openapi";
import { Timestamp } from "./common";

export const RunnerConnectQuery = z.object({
  token: z.string().min(1).optional().openapi({ description: "The API key, for WebSocket clients that cannot set an Authorization header" }),
});

export const ConnectedRunnerSchema = z
  .object({
    runnerId: z.string(),
    name: z.string(),
    principal: z.union([z.object({ type: z.literal("board"), userId: z.string() }), z.object({ type: z.literal("agent"), agentId: z.string() })]),
    agents: z.array(z.string()).openapi({ description: "Agents this runner serves (accepted in its hello)" }),
    connectedAt: Timestamp,
    activeRuns: z.number().int(),
  })
  .openapi("ConnectedRunner");

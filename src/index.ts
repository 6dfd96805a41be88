// Worker entry: HTTP, the per-minute cron, and the company Durable Object class.
import { runScheduledTick } from "./scheduler/tick";
import { RoundTrips, withCountedD1, withRoundTrips } from "./db/round-trips";
import { FAULT_HEADER, Faults, faultsEnabled, parseFaults } from "./db/faults";
import { onFirstUse } from "./lazy";
import { AgentLoop } from "./company/agent-loop/object";

export { CompanyDurableObject } from "./company/durable-object";
export { GatewayRunObject } from "./company/gateway-run";
export { AttemptLimiter } from "./auth/attempt-limiter";
export { CompanyEventsHub } from "./company/events-hub";

/**
 * The HTTP app (every route, its schemas, the OpenAPI registry) is built on an isolate's first HTTP
 * request, not at startup: an isolate that only hosts Durable Objects, alarms or the cron never
 * builds it.
 */
const httpApp = onFirstUse(async () => (await import("./app")).createApp());

const worker = {
  async fetch(request, env, ctx) {
    const roundTrips = new RoundTrips();
    // Test-only: a request may arm faults (src/db/faults.ts); never honoured outside the test configuration.
    if (faultsEnabled(env) && request.headers.has(FAULT_HEADER)) {
      try {
        roundTrips.faults = new Faults(parseFaults(request.headers.get(FAULT_HEADER)!));
      } catch (err) {
        return Response.json({ error: (err as Error).message }, { status: 400 });
      }
    }
    const http = await httpApp();
    const response = await withRoundTrips(roundTrips, () => http.fetch(request, withCountedD1(env), ctx));
    return withServerTiming(response, roundTrips);
  },
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduledTick(withCountedD1(env), new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;
export default worker;

/**
 * The edge agent's loop object (src/company/agent-loop/object.ts), given this Worker's HTTP app: its
 * tools call the agent's own API routes in this isolate, as the agent (no network round trip).
 */
export class AgentLoopObject extends AgentLoop {
  protected appFetch(request: Request): Promise<Response> {
    const ctx = { waitUntil: (promise: Promise<unknown>) => this.ctx.waitUntil(promise), passThroughOnException: () => {}, props: {} };
    return worker.fetch(request as Parameters<typeof worker.fetch>[0], this.env, ctx as unknown as ExecutionContext);
  }
}

/** Reports the request's D1 round trips and Durable Object calls (see src/db/round-trips.ts). */
function withServerTiming(response: Response, roundTrips: RoundTrips): Response {
  if (response.status === 101) return response; // WebSocket upgrades keep their response untouched
  try {
    response.headers.append("server-timing", roundTrips.serverTiming());
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.append("server-timing", roundTrips.serverTiming());
    return copy;
  }
}

// Worker-side entry to a company's Durable Objects: typed command calls, the objects' accessors and
// the headers the Worker hands requests to them with (so routes, the domain and the cron never
// import an object's class module).
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { HttpError, notFound } from "../domain/errors";
import { placementOf, scopeToCompany } from "../db/placement";
import { companyScope, currentShardScope, withShardScope } from "../db/shards";
import type { Actor } from "../domain/actor";
import type { CommandResult, CompanyCommand } from "./command";
import { currentRoundTrips } from "../db/round-trips";
import { createDb } from "../db/client";
import { currentD1Session } from "../db/sessions";
import { forgetCachedCredentials } from "../db/credential-cache";
import { idempotencyRequest } from "../domain/idempotency/receipts";

export const companyObject = (env: Env, companyId: string) => env.COMPANY.getByName(companyId);
/** The company's event hub (src/company/events-hub.ts). */
export const eventsHub = (env: Env, companyId: string) => env.EVENTS.getByName(companyId);
/** The object holding one remote gateway run (src/company/gateway-run.ts). */
export const gatewayRunObject = (env: Env, runId: string) => env.GATEWAY_RUNS.getByName(runId);
/** The AgentLoopObject running an `llm_api` run's tool loop (src/company/agent-loop/object.ts). */
export const agentLoopObject = (env: Env, runId: string) => env.AGENT_LOOPS.getByName(runId);

/** Headers the Worker hands a runner's WebSocket upgrade to the company object with (who connected, and how). */
export const RUNNER_HEADERS = {
  principal: "x-runner-principal",
  credential: "x-runner-credential",
  company: "x-runner-company",
  apiUrl: "x-runner-api-url",
} as const;

/** Headers the Worker hands an event stream to the company's hub with. */
export const STREAM_HEADERS = { company: "x-events-company", types: "x-events-types", lastEventId: "x-events-last-id", agent: "x-events-agent" } as const;

/**
 * Runs a command in the company's DO; failures become HttpErrors with their status and details.
 * A command with a loader reads here, before the serialised section (pass `loaded` when the
 * route already ran the loader, e.g. to learn the entity's company).
 */
export async function runCompanyCommand<I, O, L>(
  env: Env,
  companyId: string,
  command: CompanyCommand<I, O, L>,
  actor: Actor,
  input: I,
  loaded?: L,
  options: { idempotencyKey?: string | null } = {},
): Promise<O> {
  // The company's shard: the request's scope narrows to it (a cron or object caller gets a scope of its own).
  if (!currentShardScope()) {
    const placement = await placementOf(createDb(env.DB), companyId);
    if (!placement) throw notFound("Company not found");
    return withShardScope(companyScope(companyId, placement.shard), () => runCompanyCommand(env, companyId, command, actor, input, loaded, options));
  }
  const placement = await scopeToCompany(createDb(env.DB), companyId);
  if (!placement) throw notFound("Company not found");
  const snapshot =
    loaded === undefined && command.load ? await command.load(createDb(env.DB), { env, actor, now: new Date().toISOString(), companyId }, input) : loaded;
  const roundTrips = currentRoundTrips();
  // Test-only faults armed for this request go along (and their counts come back).
  const faults = roundTrips?.faults;
  const idempotency = options.idempotencyKey ? idempotencyRequest(options.idempotencyKey, actor, command.name, input) : undefined;
  const result = (await companyObject(env, companyId).execute(
    companyId,
    command.name,
    actor,
    input,
    snapshot,
    faults?.rules,
    placement.shard,
    idempotency,
  )) as CommandResult<O>;
  faults?.absorb(result.faults);
  if (roundTrips) {
    roundTrips.companyObjectCalls += 1;
    roundTrips.d1.command += result.roundTrips ?? 0;
  }
  if (result.credentialsChanged) forgetCachedCredentials();
  const session = currentD1Session();
  if (session && result.bookmark) session.writeBookmark = result.bookmark;
  if (!result.ok) throw new HttpError(result.status as ContentfulStatusCode, result.error, result.details);
  return result.value;
}

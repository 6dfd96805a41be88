// The doctor through the API (POST /api/companies/{companyId}/adapters/{type}/test-environment):
// which agents of the type a connected runner may be asked about, and how long the caller waits.
import { and, eq, ne } from "drizzle-orm";
import { schema, type Db } from "../../db/client";

/** A runner has this long to answer env.test (its hello probe included). */
export const ENV_TEST_TIMEOUT_MS = 60_000;

export interface EnvironmentTestInput {
  adapterType: string;
  /** Fields overriding the agent's stored config (e.g. a command or model being tried). */
  adapterConfig?: Record<string, unknown>;
  /** Test on the runner serving this agent (else any runner serving an agent of the type). */
  agentId?: string;
  /** Run the short hello probe (a real, billed model call). */
  probe: boolean;
}

/** The company's live agents of `adapterType` (just `agentId` when given), with their stored config. */
export async function agentsOfType(db: Db, companyId: string, adapterType: string, agentId: string | null) {
  const a = schema.agents;
  return db
    .select({ id: a.id, adapterConfig: a.adapterConfig })
    .from(a)
    .where(and(eq(a.companyId, companyId), eq(a.adapterType, adapterType), ne(a.status, "terminated"), agentId ? eq(a.id, agentId) : undefined));
}

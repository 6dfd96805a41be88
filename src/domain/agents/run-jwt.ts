// The short-lived agent JWT handed to an adapter for one heartbeat run (claims: sub, company_id,
// adapter_type, run_id), signed with the AGENT_JWT_SECRET binding.
import { mintAgentJwt } from "../../crypto/agent-jwt";

export async function mintRunJwt(
  env: Pick<Env, "AGENT_JWT_SECRET">,
  agent: { id: string; companyId: string; adapterType: string },
  runId: string,
  options: { lifetimeSec?: number; now?: number } = {},
): Promise<string> {
  if (!env.AGENT_JWT_SECRET) throw new Error("AGENT_JWT_SECRET is not configured");
  return mintAgentJwt(env.AGENT_JWT_SECRET, { agentId: agent.id, companyId: agent.companyId, adapterType: agent.adapterType, runId }, options);
}

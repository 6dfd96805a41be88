// Local agent JWTs (HS256, jose): minted for runs, verified during actor resolution.
import { SignJWT, jwtVerify } from "jose";

export const AGENT_JWT_ISSUER = "agent-control-plane";
export const AGENT_JWT_AUDIENCE = "agent-control-plane:agent";
const DEFAULT_LIFETIME_SEC = 60 * 60;

export interface AgentJwtClaims {
  sub: string; // agent id
  company_id: string;
  adapter_type: string;
  run_id: string | null;
  iat: number;
  exp: number;
}

const secretKey = (secret: string) => new TextEncoder().encode(secret);

export async function mintAgentJwt(
  secret: string,
  claims: { agentId: string; companyId: string; adapterType: string; runId?: string | null },
  options: { lifetimeSec?: number; now?: number } = {},
): Promise<string> {
  const iat = Math.floor((options.now ?? Date.now()) / 1000);
  return new SignJWT({ company_id: claims.companyId, adapter_type: claims.adapterType, run_id: claims.runId ?? null })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.agentId)
    .setIssuer(AGENT_JWT_ISSUER)
    .setAudience(AGENT_JWT_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + (options.lifetimeSec ?? DEFAULT_LIFETIME_SEC))
    .sign(secretKey(secret));
}

/** Returns the claims when the signature, issuer, audience and expiry hold; null otherwise. */
export async function verifyAgentJwt(secret: string, token: string): Promise<AgentJwtClaims | null> {
  if (!secret) return null;
  try {
    const { payload } = await jwtVerify(token, secretKey(secret), {
      algorithms: ["HS256"],
      issuer: AGENT_JWT_ISSUER,
      audience: AGENT_JWT_AUDIENCE,
    });
    if (typeof payload.sub !== "string" || typeof payload.company_id !== "string") return null;
    if (typeof payload.exp !== "number" || typeof payload.iat !== "number") return null;
    return {
      sub: payload.sub,
      company_id: payload.company_id,
      adapter_type: typeof payload.adapter_type === "string" ? payload.adapter_type : "",
      run_id: typeof payload.run_id === "string" ? payload.run_id : null,
      iat: payload.iat,
      exp: payload.exp,
    };
  } catch {
    return null;
  }
}

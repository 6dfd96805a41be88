// Secrets handed out by the access flows: invite tokens, join-request claim secrets,
// board-claim tokens. 32 random bytes each; only SHA-256 hex is stored.
import { randomToken } from "../../crypto/random";
import { sha256Hex } from "../../crypto/hash";

export const INVITE_TOKEN_PREFIX = "svc_invite_";
export const CLAIM_SECRET_PREFIX = "svc_claim_";
export const BOARD_CLAIM_TOKEN_PREFIX = "svc_boardclaim_";

export function mintSecret(prefix: string): { token: string; hash: string } {
  const token = prefix + randomToken(32);
  return { token, hash: sha256Hex(token) };
}

export const hashSecret = (token: string) => sha256Hex(token);

// Opaque API keys: a type prefix plus 32 random bytes; only the SHA-256 hex is stored.
import { randomToken } from "./random";
import { sha256Hex } from "./hash";

export const BOARD_KEY_PREFIX = "svc_board_";
export const AGENT_KEY_PREFIX = "svc_agent_";
export const BOARD_KEY_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export function mintApiKey(prefix: string): { token: string; hash: string } {
  const token = prefix + randomToken(32);
  return { token, hash: hashApiKey(token) };
}

export const hashApiKey = (token: string) => sha256Hex(token);

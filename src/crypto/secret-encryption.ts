// AES-256-GCM encryption of secret values (provider `local_encrypted`) through WebCrypto.
// Material is tagged with a scheme so the stored format can evolve.
import { sha256Hex } from "./hash";

export const SECRET_SCHEME = "aes-256-gcm:v1";
const IV_BYTES = 12;

export interface EncryptedMaterial {
  scheme: typeof SECRET_SCHEME;
  /** base64, 12 bytes, fresh per encryption */
  iv: string;
  /** base64 ciphertext with the 16-byte GCM tag appended */
  ciphertext: string;
}

export class SecretDecryptionError extends Error {}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function base64ToBytes(text: string): Uint8Array | null {
  const normalised = text.trim().replace(/-/g, "+").replace(/_/g, "/");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(normalised)) return null;
  const padded = normalised + "=".repeat((4 - (normalised.length % 4)) % 4);
  try {
    const binary = atob(padded);
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

/** The 32 raw key bytes from 64 hex characters or base64 (standard or URL-safe) of 32 bytes; null if neither. */
export function parseMasterKey(raw: string | undefined | null): Uint8Array | null {
  const text = raw?.trim();
  if (!text) return null;
  if (/^[0-9a-fA-F]{64}$/.test(text)) {
    const out = new Uint8Array(32);
    for (let i = 0; i < 32; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
    return out;
  }
  const bytes = base64ToBytes(text);
  return bytes && bytes.length === 32 ? bytes : null;
}

export const isValidMasterKey = (raw: string | undefined | null) => parseMasterKey(raw) !== null;

const keyCache = new Map<string, Promise<CryptoKey>>();

/** Imports the master key once per distinct value; throws if the value is not a valid key. */
export function importMasterKey(raw: string | undefined | null): Promise<CryptoKey> {
  const bytes = parseMasterKey(raw);
  if (!bytes) throw new Error("SECRETS_MASTER_KEY must be 64 hex characters or base64 of 32 bytes");
  const cacheKey = sha256Hex(bytes);
  let key = keyCache.get(cacheKey);
  if (!key) {
    key = crypto.subtle.importKey("raw", bytes, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
    keyCache.set(cacheKey, key);
  }
  return key;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Encrypts `plaintext` with a fresh random IV. `associatedData` (for example the
 * secret id and version) is authenticated but not stored: material copied to
 * another row fails to decrypt.
 */
export async function encryptSecretValue(key: CryptoKey, plaintext: string, associatedData?: string): Promise<EncryptedMaterial> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const params: SubtleCryptoEncryptAlgorithm = { name: "AES-GCM", iv };
  if (associatedData !== undefined) params.additionalData = encoder.encode(associatedData);
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt(params, key, encoder.encode(plaintext)));
  return { scheme: SECRET_SCHEME, iv: bytesToBase64(iv), ciphertext: bytesToBase64(ciphertext) };
}

/** Decrypts material made by `encryptSecretValue`; throws SecretDecryptionError on any tampering, wrong key or unknown scheme. */
export async function decryptSecretValue(key: CryptoKey, material: unknown, associatedData?: string): Promise<string> {
  const m = material as Partial<EncryptedMaterial> | null;
  if (!m || typeof m !== "object" || m.scheme !== SECRET_SCHEME || typeof m.iv !== "string" || typeof m.ciphertext !== "string") {
    throw new SecretDecryptionError("Unknown or malformed secret material");
  }
  const iv = base64ToBytes(m.iv);
  const ciphertext = base64ToBytes(m.ciphertext);
  if (!iv || iv.length !== IV_BYTES || !ciphertext) throw new SecretDecryptionError("Malformed secret material");
  const params: SubtleCryptoEncryptAlgorithm = { name: "AES-GCM", iv };
  if (associatedData !== undefined) params.additionalData = encoder.encode(associatedData);
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt(params, key, ciphertext);
  } catch {
    throw new SecretDecryptionError("Secret material failed authentication (wrong key or tampered data)");
  }
  try {
    return decoder.decode(plain);
  } catch {
    throw new SecretDecryptionError("Secret material is not valid UTF-8");
  }
}

// Unit tests: AES-256-GCM secret encryption and master key parsing.
import { describe, expect, it } from "vitest";
import {
  decryptSecretValue,
  encryptSecretValue,
  importMasterKey,
  isValidMasterKey,
  parseMasterKey,
  SECRET_SCHEME,
  SecretDecryptionError,
} from "../../src/crypto/secret-encryption";

const HEX_KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const hexToBytes = (hex: string) => Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16)));
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const BASE64_KEY = toBase64(hexToBytes(HEX_KEY));
const OTHER_KEY = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";

describe("parseMasterKey", () => {
  it("accepts 64 hex characters and base64 (standard or URL-safe) of 32 bytes, yielding the same key", () => {
    expect(parseMasterKey(HEX_KEY)).toEqual(hexToBytes(HEX_KEY));
    expect(parseMasterKey(HEX_KEY.toUpperCase())).toEqual(hexToBytes(HEX_KEY));
    expect(parseMasterKey(BASE64_KEY)).toEqual(hexToBytes(HEX_KEY));
    const urlSafe = toBase64(hexToBytes(OTHER_KEY)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    expect(parseMasterKey(urlSafe)).toEqual(hexToBytes(OTHER_KEY));
  });

  it("rejects missing, short, long and non-key values", () => {
    for (const bad of [
      undefined,
      null,
      "",
      "   ",
      HEX_KEY.slice(2),
      HEX_KEY + "00",
      "not a key at all!",
      toBase64(new Uint8Array(16)),
      toBase64(new Uint8Array(33)),
    ]) {
      expect(parseMasterKey(bad)).toBeNull();
      expect(isValidMasterKey(bad)).toBe(false);
    }
  });
});

describe("encryptSecretValue / decryptSecretValue", () => {
  it("round-trips text (including unicode, a BOM and 64 KiB) and tags the scheme", async () => {
    const key = await importMasterKey(HEX_KEY);
    for (const value of ["sk-test-123", "pässwörd 🔐", "\uFEFFbom", "x".repeat(64 * 1024)]) {
      const material = await encryptSecretValue(key, value);
      expect(material.scheme).toBe(SECRET_SCHEME);
      expect(material.ciphertext).not.toContain(value.slice(0, 8));
      expect(await decryptSecretValue(key, material)).toBe(value);
    }
  });

  it("both key formats decrypt each other's material", async () => {
    const material = await encryptSecretValue(await importMasterKey(HEX_KEY), "shared", "ad");
    expect(await decryptSecretValue(await importMasterKey(BASE64_KEY), material, "ad")).toBe("shared");
  });

  it("uses a fresh 12-byte IV every time", async () => {
    const key = await importMasterKey(HEX_KEY);
    const a = await encryptSecretValue(key, "same value");
    const b = await encryptSecretValue(key, "same value");
    expect(atob(a.iv).length).toBe(12);
    expect(a.iv).not.toBe(b.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it("detects tampering of ciphertext, IV, associated data or scheme", async () => {
    const key = await importMasterKey(HEX_KEY);
    const material = await encryptSecretValue(key, "do not touch", "secret:1:v1");
    const bytes = Uint8Array.from(atob(material.ciphertext), (c) => c.charCodeAt(0));
    bytes[0] ^= 1;
    const flipped = { ...material, ciphertext: toBase64(bytes) };
    await expect(decryptSecretValue(key, flipped, "secret:1:v1")).rejects.toBeInstanceOf(SecretDecryptionError);
    const ivBytes = Uint8Array.from(atob(material.iv), (c) => c.charCodeAt(0));
    ivBytes[11] ^= 0x80;
    await expect(decryptSecretValue(key, { ...material, iv: toBase64(ivBytes) }, "secret:1:v1")).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(decryptSecretValue(key, material, "secret:1:v2")).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(decryptSecretValue(key, material)).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(decryptSecretValue(key, { ...material, scheme: "aes-256-gcm:v0" }, "secret:1:v1")).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(decryptSecretValue(key, { ...material, ciphertext: "" }, "secret:1:v1")).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(decryptSecretValue(key, null)).rejects.toBeInstanceOf(SecretDecryptionError);
    expect(await decryptSecretValue(key, material, "secret:1:v1")).toBe("do not touch");
  });

  it("fails with the wrong key", async () => {
    const material = await encryptSecretValue(await importMasterKey(HEX_KEY), "mine");
    await expect(decryptSecretValue(await importMasterKey(OTHER_KEY), material)).rejects.toBeInstanceOf(SecretDecryptionError);
  });

  it("refuses to import an invalid master key", () => {
    expect(() => importMasterKey("short")).toThrow(/SECRETS_MASTER_KEY/);
  });
});

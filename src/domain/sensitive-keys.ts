// Which keys name secret-like values (`apiKey`, `X-Auth-Token`, `db_password`, …). No imports: the
// service's redaction and the board console (which never shows such a value) share it.
const SENSITIVE_KEY_ENDINGS = [
  "apikey",
  "secret",
  "password",
  "passwd",
  "passphrase",
  "token",
  "authorization",
  "privatekey",
  "credential",
  "credentials",
  "cookie",
];

export function isSensitiveKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[-_\s]/g, "");
  return SENSITIVE_KEY_ENDINGS.some((ending) => k.endsWith(ending));
}

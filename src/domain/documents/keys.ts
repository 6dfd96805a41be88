// Document keys: lowercase letters, digits, `_` and `-`; redirected agent writes go to `key-2`, `key-3`, …
export const DOCUMENT_KEY_PATTERN = /^[a-z0-9_-]+$/;
export const DOCUMENT_KEY_MAX_LENGTH = 64;
/** Document body limit (UTF-8 bytes). */
export const DOCUMENT_BODY_MAX_BYTES = 512 * 1024;

/** The first `key-N` (N ≥ 2) not in `taken`. */
export function derivedDocumentKey(key: string, taken: Set<string>): string {
  for (let n = 2; ; n++) {
    const candidate = `${key}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

export const utf8Length = (text: string) => new TextEncoder().encode(text).byteLength;

// Page and source bodies in R2, content-addressed per company: the key is the SHA-256 of the
// UTF-8 text, so writing the same text twice stores it once and a stored object never changes.
// Objects are written before the batch that references them (an object no row names is only storage).
import { sha256Hex } from "../../crypto/hash";

export const wikiPrefix = (companyId: string) => `companies/${companyId}/wiki/`;
export const wikiObjectKey = (companyId: string, hash: string) => `${wikiPrefix(companyId)}objects/${hash}`;

export const hashOf = (text: string) => sha256Hex(text);
export const byteLength = (text: string) => new TextEncoder().encode(text).byteLength;

/** Stores `text` (idempotent) and returns its hash, key and size. */
export async function putBody(env: Env, companyId: string, text: string, hash = hashOf(text)) {
  const objectKey = wikiObjectKey(companyId, hash);
  await env.FILES.put(objectKey, text, { httpMetadata: { contentType: "text/markdown; charset=utf-8" } });
  return { hash, objectKey, sizeBytes: byteLength(text) };
}

/** The stored text; an object that went missing is an internal error (rows only name stored objects). */
export async function readBody(env: Env, objectKey: string): Promise<string> {
  const object = await env.FILES.get(objectKey);
  if (!object) throw new Error(`wiki object ${objectKey} is missing`);
  return object.text();
}

/** Deletes every wiki object of the company (purge). */
export async function deleteWikiObjects(env: Env, companyId: string) {
  let cursor: string | undefined;
  do {
    const listing = await env.FILES.list({ prefix: wikiPrefix(companyId), cursor });
    if (listing.objects.length) await env.FILES.delete(listing.objects.map((o) => o.key));
    cursor = listing.truncated ? listing.cursor : undefined;
  } while (cursor);
}

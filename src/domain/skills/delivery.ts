// Skills delivered with a run: the desired skills' files, read from the company's library (R2),
// or from the shipped catalog for a bundled skill the library has not listed yet. Text files come
// as `content`, binary ones as `contentBase64`; a desired key the library lacks is left out (the
// agent's skill snapshot reports it as missing).
import type { Db } from "../../db/client";
import { bundledCatalog } from "./catalog";
import { textOf } from "./package";
import { skillsWithKeys } from "./queries";

/** At most this many bytes of skill files travel with one run; beyond it files come as metadata only (`omitted: true`). */
export const MAX_DELIVERED_BYTES = 2 * 1024 * 1024;

export interface DeliveredSkill {
  key: string;
  name: string;
  slug: string;
  contentHash: string;
  files: Array<{ path: string; kind: string; sha256: string; sizeBytes?: number; content?: string; contentBase64?: string; omitted?: boolean }>;
}

const fileOut = (f: { path: string; kind: string; sha256: string; sizeBytes?: number }, bytes: Uint8Array) => {
  const text = textOf(bytes);
  if (text !== null) return { ...f, content: text };
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return { ...f, contentBase64: btoa(binary) };
};

export async function skillsForRun(env: Env, db: Db, companyId: string, keys: string[]): Promise<DeliveredSkill[]> {
  if (!keys.length) return [];
  const { rows, files } = await skillsWithKeys(db, companyId, keys);
  const out: DeliveredSkill[] = [];
  let budget = MAX_DELIVERED_BYTES;
  for (const key of keys) {
    const row = rows.find((r) => r.key === key);
    if (row) {
      const own = files.filter((f) => f.skillId === row.id).sort((a, b) => (a.path === "SKILL.md" ? -1 : b.path === "SKILL.md" ? 1 : a.path < b.path ? -1 : 1));
      const delivered: DeliveredSkill["files"] = [];
      for (const f of own) {
        const meta = { path: f.path, kind: f.kind, sha256: f.sha256, sizeBytes: f.sizeBytes };
        const object = f.sizeBytes <= budget ? await env.FILES.get(f.objectKey) : null;
        if (!object) {
          delivered.push({ ...meta, omitted: true });
          continue;
        }
        budget -= f.sizeBytes;
        delivered.push(fileOut(meta, new Uint8Array(await object.arrayBuffer())));
      }
      out.push({ key, name: row.name, slug: row.slug, contentHash: row.contentHash, files: delivered });
      continue;
    }
    const bundled = (await bundledCatalog()).find((s) => s.entry.key === key);
    if (bundled) {
      out.push({
        key,
        name: bundled.pkg.name,
        slug: bundled.pkg.slug,
        contentHash: bundled.pkg.contentHash,
        files: bundled.pkg.files.map((f) => fileOut({ path: f.path, kind: f.kind, sha256: f.sha256 }, f.bytes)),
      });
    }
  }
  return out;
}

// Multipart uploads (`file` part): size limit, content type, SHA-256, safe filenames, R2 keys.
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { badRequest, HttpError } from "../errors";

/** Largest attachment or logo upload (the file itself). */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** Request body limit for upload routes: the file plus multipart framing. */
export const UPLOAD_BODY_LIMIT_BYTES = MAX_UPLOAD_BYTES + 256 * 1024;

export interface Upload {
  bytes: Uint8Array;
  byteSize: number;
  sha256: string;
  /** Declared type of the part, lower-cased, or application/octet-stream. */
  contentType: string;
  filename: string | null;
}

const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

export function normaliseContentType(raw: string | undefined | null): string {
  const [essence, ...params] = (raw ?? "").split(";");
  const type = essence.trim().toLowerCase();
  if (!CONTENT_TYPE.test(type)) return "application/octet-stream";
  const charset = params.map((p) => p.trim().toLowerCase()).find((p) => /^charset=[a-z0-9._-]+$/.test(p));
  return charset && type.startsWith("text/") ? `${type}; ${charset}` : type;
}

/** The last path segment without control characters, at most 255 characters; null when nothing is left. */
export function safeFilename(name: string | undefined | null): string | null {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  const cleaned = base
    .replace(/[\u0000-\u001f\u007f"]/g, "")
    .trim()
    .slice(0, 255);
  return cleaned && cleaned !== "." && cleaned !== ".." ? cleaned : null;
}

export async function digestSha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Reads the `file` part of a multipart/form-data request (400 when missing, 413 when too large). */
export async function readUpload(c: Context<AppEnv>, options: { allowEmpty?: boolean } = {}): Promise<Upload> {
  const contentType = c.req.header("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw badRequest("Upload must be multipart/form-data with a `file` part");
  }
  let form: FormData;
  try {
    form = await c.req.raw.formData();
  } catch {
    throw badRequest("Malformed multipart/form-data body");
  }
  const file = form.get("file");
  if (!file || typeof file === "string") throw badRequest("Multipart part `file` (a file) is required");
  if (file.size > MAX_UPLOAD_BYTES) {
    throw new HttpError(413, `File is ${file.size} bytes; the upload limit is ${MAX_UPLOAD_BYTES} bytes (25 MiB)`, {
      limitBytes: MAX_UPLOAD_BYTES,
      fileBytes: file.size,
    });
  }
  if (file.size === 0 && !options.allowEmpty) throw badRequest("File is empty");
  const bytes = new Uint8Array(await file.arrayBuffer());
  return {
    bytes,
    byteSize: bytes.byteLength,
    sha256: await digestSha256Hex(bytes),
    contentType: normaliseContentType(file.type),
    filename: safeFilename(file.name),
  };
}

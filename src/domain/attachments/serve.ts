// Serves stored bytes from R2: inline or as a download, single HTTP ranges (206/416),
// ETag (the SHA-256) with If-None-Match (304), and headers that stop content sniffing
// and script execution in active content types.

export interface StoredObject {
  objectKey: string;
  contentType: string;
  byteSize: number;
  sha256: string;
  filename: string | null;
}

export type ByteRange = { offset: number; length: number };

/**
 * Parses a Range header against `size`: a single range `bytes=a-b`, `a-` or `-n`.
 * Returns null to serve the whole body (no header, several ranges, or a malformed header,
 * which RFC 9110 says to ignore) and "unsatisfiable" for a range outside the body.
 */
export function parseRange(header: string | undefined | null, size: number): ByteRange | null | "unsatisfiable" {
  if (!header) return null;
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!match) return null;
  const spec = match[1].trim();
  if (spec.includes(",")) return null;
  const parts = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
  if (!parts || (parts[1] === "" && parts[2] === "")) return null;
  if (parts[1] === "") {
    const suffix = Number(parts[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    const length = Math.min(suffix, size);
    return { offset: size - length, length };
  }
  const start = Number(parts[1]);
  if (start >= size) return "unsatisfiable";
  if (parts[2] === "") return { offset: start, length: size - start };
  const end = Number(parts[2]);
  if (end < start) return null;
  return { offset: start, length: Math.min(end, size - 1) - start + 1 };
}

/** ASCII-only fallback plus RFC 5987 `filename*` for the real name. */
export function contentDisposition(kind: "inline" | "attachment", filename: string | null) {
  if (!filename) return kind;
  const fallback = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\;]/g, "_");
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Types a browser would run script in when opened directly. */
const ACTIVE_TYPES = /^(image\/svg\+xml|text\/html|application\/xhtml\+xml|text\/xml|application\/xml|text\/javascript|application\/javascript)\b/;
export const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'";

const etagMatches = (header: string, etag: string) => header.trim() === "*" || header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);

export async function serveStoredObject(bucket: R2Bucket, request: Request, object: StoredObject, options: { download: boolean }): Promise<Response> {
  const etag = `"${object.sha256}"`;
  const headers = new Headers({
    "Content-Type": object.contentType,
    ETag: etag,
    "Accept-Ranges": "bytes",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, max-age=0, must-revalidate",
    "Content-Disposition": contentDisposition(options.download ? "attachment" : "inline", object.filename),
  });
  if (object.contentType.startsWith("image/svg+xml")) headers.set("Content-Security-Policy", SVG_CSP);
  else if (ACTIVE_TYPES.test(object.contentType)) headers.set("Content-Security-Policy", `${SVG_CSP}; sandbox`);

  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch && etagMatches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });

  const range = parseRange(request.headers.get("range"), object.byteSize);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${object.byteSize}`);
    headers.set("Content-Type", "application/json");
    headers.delete("Content-Disposition");
    return new Response(JSON.stringify({ error: "Requested range not satisfiable", details: { size: object.byteSize } }), { status: 416, headers });
  }
  const stored = await bucket.get(object.objectKey, range ? { range } : undefined);
  if (!stored) {
    headers.set("Content-Type", "application/json");
    headers.delete("Content-Disposition");
    return new Response(JSON.stringify({ error: "Stored content is missing" }), { status: 404, headers });
  }
  if (range) {
    headers.set("Content-Range", `bytes ${range.offset}-${range.offset + range.length - 1}/${object.byteSize}`);
    headers.set("Content-Length", String(range.length));
    return new Response(stored.body, { status: 206, headers });
  }
  headers.set("Content-Length", String(object.byteSize));
  return new Response(stored.body, { status: 200, headers });
}

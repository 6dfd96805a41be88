// Logo image types: the allowed declared types and the magic bytes each raster type must start with.
export const LOGO_CONTENT_TYPES = ["image/png", "image/jpeg", "image/jpg", "image/webp", "image/gif", "image/svg+xml"] as const;

const ascii = (bytes: Uint8Array, from: number, text: string) => text.split("").every((ch, i) => bytes[from + i] === ch.charCodeAt(0));

const SIGNATURES: Record<string, (b: Uint8Array) => boolean> = {
  "image/png": (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v),
  "image/jpeg": (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  "image/gif": (b) => ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a"),
  "image/webp": (b) => ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP"),
};

/** The canonical logo type for a declared one (image/jpg → image/jpeg), or null when not allowed. */
export function logoContentType(declared: string): string | null {
  const type = declared.split(";")[0].trim().toLowerCase();
  if (!(LOGO_CONTENT_TYPES as readonly string[]).includes(type)) return null;
  return type === "image/jpg" ? "image/jpeg" : type;
}

/** Whether the bytes carry the signature of the (raster) type. */
export const hasImageSignature = (type: string, bytes: Uint8Array) => SIGNATURES[type]?.(bytes) ?? false;

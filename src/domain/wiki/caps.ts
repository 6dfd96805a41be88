// Capture caps: how much text one captured source may carry, by source type (the spec's
// ingestion caps; pasted and fetched sources get the incumbent's default source size). Larger
// input is refused whole with 413 naming the cap (never truncated silently).
import type { WIKI_SOURCE_TYPES } from "../../db/schema/plugins";
import { HttpError } from "../errors";

type SourceType = (typeof WIKI_SOURCE_TYPES)[number];

export const CAPTURE_CAPS: Record<SourceType, { maxChars: number; label: string }> = {
  issue: { maxChars: 12_000, label: "12,000 characters per issue, comment or document source" },
  comment: { maxChars: 12_000, label: "12,000 characters per issue, comment or document source" },
  document: { maxChars: 12_000, label: "12,000 characters per issue, comment or document source" },
  cursor_window: { maxChars: 60_000, label: "60,000 characters per cursor window" },
  routine_run: { maxChars: 120_000, label: "120,000 characters per routine run" },
  manual: { maxChars: 250_000, label: "250,000 characters per pasted or fetched source" },
  url: { maxChars: 250_000, label: "250,000 characters per pasted or fetched source" },
};

/** Characters as people count them (code points, not UTF-16 units). */
export const characterCount = (text: string) => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/** The source's character count, or a 413 naming the cap it exceeds. */
export function checkCaptureCap(sourceType: SourceType, contents: string): number {
  const cap = CAPTURE_CAPS[sourceType];
  const characters = characterCount(contents);
  if (characters > cap.maxChars) {
    throw new HttpError(413, `Source too large: ${characters} characters; the capture cap is ${cap.label}`, { sourceType, characters, capChars: cap.maxChars });
  }
  return characters;
}

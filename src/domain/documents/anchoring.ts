// Annotation anchors: a quoted text range of one document revision, carried forward to
// later revisions. Pure functions (unit-tested in test/documents-anchoring.test.ts).
//
// Re-anchoring maps the range through a character diff of the two revisions
// (diff-match-patch); when the mapped range no longer holds the quote, the quote is
// searched for elsewhere, preferring occurrences whose surrounding context still matches
// and, among those, the one nearest to where the diff says the range went.
import { diffMain, diffXIndex } from "diff-match-patch-es";
import type { ANNOTATION_ANCHOR_STATES } from "../../db/schema/documents";

export type AnchorState = (typeof ANNOTATION_ANCHOR_STATES)[number];

export interface Anchor {
  start: number;
  end: number;
  quote: string;
  prefix: string;
  suffix: string;
}

export interface ReanchorResult extends Anchor {
  state: AnchorState;
}

/** Context kept on each side of a quote to tell repeated occurrences apart. */
export const ANCHOR_CONTEXT_CHARS = 32;
/** Occurrences of a quote considered when searching (guards against pathological repeats). */
const MAX_CANDIDATES = 2000;

export function contextAround(text: string, start: number, end: number) {
  return {
    prefix: text.slice(Math.max(0, start - ANCHOR_CONTEXT_CHARS), start),
    suffix: text.slice(end, end + ANCHOR_CONTEXT_CHARS),
  };
}

/**
 * Checks a proposed anchor against the revision text; returns a problem message or null.
 * `prefix`/`suffix`, when given, must be the text just before/after the range (a tail/head of it).
 */
export function validateAnchor(text: string, a: { start: number; end: number; quote: string; prefix?: string; suffix?: string }) {
  if (!Number.isInteger(a.start) || !Number.isInteger(a.end) || a.start < 0 || a.end <= a.start) {
    return "start and end must be integers with 0 <= start < end";
  }
  if (a.end > text.length) return `end (${a.end}) is beyond the revision's body length (${text.length})`;
  if (text.slice(a.start, a.end) !== a.quote) return "quote does not match the revision's text between start and end";
  if (a.prefix !== undefined && a.prefix !== "" && !endsAt(text, a.prefix, a.start)) {
    return "prefix does not match the text before start";
  }
  if (a.suffix !== undefined && a.suffix !== "" && !text.slice(a.end).startsWith(a.suffix)) {
    return "suffix does not match the text after end";
  }
  return null;
}

/** Reusable old→new position mapping (one diff per revision pair, shared by every thread). */
export class RevisionMapping {
  private diffs: ReturnType<typeof diffMain> | null = null;

  constructor(
    readonly oldText: string,
    readonly newText: string,
  ) {}

  /** Where position `loc` of the old text ended up in the new text. */
  map(loc: number): number {
    if (this.oldText === this.newText) return loc;
    this.diffs ??= diffMain(this.oldText, this.newText, { diffTimeout: 1 });
    return diffXIndex(this.diffs, loc);
  }
}

/** Carries an anchor of `mapping.oldText` over to `mapping.newText`. */
export function reanchor(anchor: Anchor, mapping: RevisionMapping): ReanchorResult {
  const { newText } = mapping;
  const { quote } = anchor;
  const length = quote.length;

  const mappedStart = mapping.map(anchor.start);
  if (newText.startsWith(quote, mappedStart)) {
    return place(anchor, newText, mappedStart);
  }

  const found = bestOccurrence(newText, anchor, mappedStart);
  if (found === null) return { ...anchor, state: "orphaned" };
  return place(anchor, newText, found, length);
}

function place(anchor: Anchor, text: string, start: number, length = anchor.quote.length): ReanchorResult {
  const end = start + length;
  return {
    ...contextAround(text, start, end),
    quote: anchor.quote,
    start,
    end,
    state: start === anchor.start ? "active" : "shifted",
  };
}

/** The occurrence of the quote whose context matches best, nearest to `near`; null when the quote is gone. */
function bestOccurrence(text: string, anchor: Anchor, near: number): number | null {
  let best: { index: number; score: number; distance: number } | null = null;
  let from = 0;
  for (let n = 0; n < MAX_CANDIDATES; n++) {
    const index = text.indexOf(anchor.quote, from);
    if (index === -1) break;
    const end = index + anchor.quote.length;
    const score =
      (anchor.prefix && endsAt(text, anchor.prefix, index) ? 2 : 0) +
      (anchor.suffix && text.startsWith(anchor.suffix, end) ? 2 : 0) +
      (anchor.prefix && endsAt(text, anchor.prefix.slice(-8), index) ? 1 : 0) +
      (anchor.suffix && text.startsWith(anchor.suffix.slice(0, 8), end) ? 1 : 0);
    const distance = Math.abs(index - near);
    if (!best || score > best.score || (score === best.score && distance < best.distance)) {
      best = { index, score, distance };
    }
    from = index + 1;
  }
  return best ? best.index : null;
}

/** Whether `part` ends exactly at position `at` of `text`. */
function endsAt(text: string, part: string, at: number) {
  return at >= part.length && text.startsWith(part, at - part.length);
}

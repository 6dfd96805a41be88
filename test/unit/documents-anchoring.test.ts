// Unit tests of annotation re-anchoring (pure functions over two revision texts).
import { describe, expect, it } from "vitest";
import { contextAround, reanchor, RevisionMapping, validateAnchor, type Anchor } from "../../src/domain/documents/anchoring";

function anchorOf(text: string, quote: string, occurrence = 0): Anchor {
  let start = -1;
  for (let i = 0; i <= occurrence; i++) start = text.indexOf(quote, start + 1);
  if (start < 0) throw new Error("quote not in text");
  const end = start + quote.length;
  return { start, end, quote, ...contextAround(text, start, end) };
}

const carry = (oldText: string, newText: string, anchor: Anchor) => reanchor(anchor, new RevisionMapping(oldText, newText));

describe("reanchor", () => {
  const base = "Alpha paragraph.\n\nBeta paragraph with the key phrase.\n\nGamma paragraph.";

  it("is active when nothing moved, or only text after the quote changed", () => {
    const a = anchorOf(base, "key phrase");
    expect(carry(base, base, a)).toMatchObject({ state: "active", start: a.start, end: a.end });
    const r = carry(base, base.replace("Gamma", "Delta"), a);
    expect(r).toMatchObject({ state: "active", start: a.start, end: a.end });
    expect(r.suffix).toContain("Delta");
  });

  it("is shifted (with new offsets) when text before the quote changed length", () => {
    const a = anchorOf(base, "key phrase");
    const next = `Intro.\n\n${base}`;
    const r = carry(base, next, a);
    expect(r.state).toBe("shifted");
    expect(r.start).toBe(a.start + 8);
    expect(next.slice(r.start, r.end)).toBe("key phrase");
  });

  it("follows a moved paragraph", () => {
    const a = anchorOf(base, "key phrase");
    const moved = "Gamma paragraph.\n\nAlpha paragraph.\n\nBeta paragraph with the key phrase.";
    const r = carry(base, moved, a);
    expect(r.state).toBe("shifted");
    expect(moved.slice(r.start, r.end)).toBe("key phrase");
  });

  it("is orphaned when the quoted text is deleted or edited", () => {
    const a = anchorOf(base, "key phrase");
    expect(carry(base, base.replace("Beta paragraph with the key phrase.", "Beta."), a).state).toBe("orphaned");
    expect(carry(base, base.replace("key phrase", "key phrases!").replace("key phrases!", "kee phrase"), a).state).toBe("orphaned");
    const orphan = carry(base, "", a);
    expect(orphan).toMatchObject({ state: "orphaned", start: a.start, end: a.end });
  });

  it("picks the repeated occurrence whose context matches, not merely the first", () => {
    const text = "Note: todo here.\nSection B. Note: todo here.\nEnd.";
    const second = anchorOf(text, "todo", 1);
    const edited = `Preface line.\n${text}`;
    const r = carry(text, edited, second);
    expect(r.state).toBe("shifted");
    expect(r.start).toBe(edited.lastIndexOf("todo"));
  });

  it("when the mapped range is edited but the quote survives elsewhere, prefers the nearest", () => {
    const text = "one two three. one two three.";
    const a = anchorOf(text, "two", 0);
    const edited = "one 2 three. one two three.";
    const r = carry(text, edited, a);
    expect(r.state).toBe("shifted");
    expect(r.start).toBe(edited.indexOf("two"));
  });

  it("handles insertions right at the anchor edges", () => {
    const text = "abc QUOTE def";
    const a = anchorOf(text, "QUOTE");
    const before = carry(text, "abc XQUOTE def", a);
    expect(before).toMatchObject({ state: "shifted", start: 5, end: 10 });
    const after = carry(text, "abc QUOTEX def", a);
    expect(after).toMatchObject({ state: "active", start: 4, end: 9 });
  });

  it("copes with large documents", () => {
    const big = Array.from({ length: 4000 }, (_, i) => `Line ${i} of the document.`).join("\n");
    const a = anchorOf(big, "Line 3500 of");
    const edited = big.replace("Line 10 of", "Line ten (edited) of");
    const r = carry(big, edited, a);
    expect(r.state).toBe("shifted");
    expect(edited.slice(r.start, r.end)).toBe("Line 3500 of");
  });
});

describe("validateAnchor", () => {
  const text = "hello brave new world";
  it("accepts a matching range and optional context", () => {
    expect(validateAnchor(text, { start: 6, end: 11, quote: "brave" })).toBeNull();
    expect(validateAnchor(text, { start: 6, end: 11, quote: "brave", prefix: "hello ", suffix: " new" })).toBeNull();
  });
  it("rejects bad ranges, quotes and context", () => {
    expect(validateAnchor(text, { start: 6, end: 6, quote: "" })).toMatch(/start < end/);
    expect(validateAnchor(text, { start: 6, end: 100, quote: "brave" })).toMatch(/beyond/);
    expect(validateAnchor(text, { start: 6, end: 11, quote: "BRAVE" })).toMatch(/quote/);
    expect(validateAnchor(text, { start: 6, end: 11, quote: "brave", prefix: "bye " })).toMatch(/prefix/);
    expect(validateAnchor(text, { start: 6, end: 11, quote: "brave", suffix: "old" })).toMatch(/suffix/);
  });
});

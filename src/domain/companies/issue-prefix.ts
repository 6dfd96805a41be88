// Issue prefix: the first three A–Z letters of the upper-cased name (fallback CMP);
// on a clash, `A` is appended until unique (ABC, ABCA, ABCAA, ...).
export function baseIssuePrefix(name: string): string {
  const letters = name.toUpperCase().replace(/[^A-Z]/g, "");
  return letters.slice(0, 3) || "CMP";
}

/** The first candidate not in `taken`. */
export function firstFreePrefix(base: string, taken: Set<string>): string {
  let candidate = base;
  while (taken.has(candidate)) candidate += "A";
  return candidate;
}

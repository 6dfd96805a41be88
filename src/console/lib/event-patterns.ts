// Event type patterns as the API's stream filters read them: an exact type, `prefix.*`, or `*`.

export function matches(patterns: string[], type: string): boolean {
  return patterns.some((p) => p === "*" || p === type || (p.endsWith(".*") && type.startsWith(p.slice(0, -1))));
}

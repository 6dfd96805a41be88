// Agent names and URL keys (company-unique shortnames derived from the name).
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `Chief Engineer #2` → `chief-engineer-2`; a name without letters or digits gives `agent`. */
export function deriveUrlKey(name: string): string {
  const key = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/g, "");
  return key || "agent";
}

/**
 * A name (and its URL key) not used by any live agent: the name itself, else `Name 2`, `Name 3`, …
 * `taken` holds the live agents' names and URL keys (names compared case-insensitively).
 */
export function uniqueAgentName(name: string, taken: { names: string[]; urlKeys: string[] }): { name: string; urlKey: string } {
  const names = new Set(taken.names.map((n) => n.toLowerCase()));
  const keys = new Set(taken.urlKeys);
  for (let i = 1; ; i++) {
    const candidate = i === 1 ? name : `${name} ${i}`;
    const urlKey = deriveUrlKey(candidate);
    if (!names.has(candidate.toLowerCase()) && !keys.has(urlKey)) return { name: candidate, urlKey };
  }
}

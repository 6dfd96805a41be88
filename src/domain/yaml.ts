// YAML (the frontmatter of skills and of company packages), loaded on first use: the parser is
// ~100 KB that most requests, and every Durable Object and cron isolate, never need.
import { onFirstUse } from "../lazy";

type Yaml = typeof import("yaml");

/** The parser, loaded on first use (a failed load is tried again on the next call). */
const yamlModule = onFirstUse<Yaml>(() => import("yaml"));
export const loadYaml = (): Promise<Yaml> => yamlModule();

/** The parser, for synchronous code whose entry point awaited loadYaml() (exporting or reading a company package). */
export function loadedYaml(): Yaml {
  const loaded = yamlModule.current();
  if (!loaded) throw new Error("YAML is not loaded yet: the entry point must await loadYaml()");
  return loaded;
}

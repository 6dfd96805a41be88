// YAML (the frontmatter of skills and of company packages), loaded on first use: the parser is
// ~100 KB that most requests, and every Durable Object and cron isolate, never need.
type Yaml = typeof import("yaml");

let loading: Promise<Yaml> | undefined;
let loaded: Yaml | undefined;

export function loadYaml(): Promise<Yaml> {
  loading ??= import("yaml").then(
    (module) => (loaded = module),
    (err) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

/** The parser, for synchronous code whose entry point awaited loadYaml() (exporting or reading a company package). */
export function loadedYaml(): Yaml {
  if (!loaded) throw new Error("YAML is not loaded yet: the entry point must await loadYaml()");
  return loaded;
}

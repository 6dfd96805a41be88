// Loaded on first use: a heavy module (a dynamic import) or a value built from it, loaded by the
// first caller and shared by the rest; a failed load is forgotten, so the next call tries again
// (one bad moment does not poison the isolate). Used by the Worker (the HTTP app, YAML, the skills
// catalog, …) and the console (the markdown renderer). Imports nothing.

export interface OnFirstUse<T> {
  /** The value, loading it on the first call (or again after a failed load). */
  (): Promise<T>;
  /** The value if a load has finished, else undefined (synchronous code after an awaited load). */
  current(): T | undefined;
}

export function onFirstUse<T>(load: () => Promise<T>): OnFirstUse<T> {
  let loading: Promise<T> | undefined;
  let value: T | undefined;
  let done = false;
  const get = () =>
    (loading ??= load().then(
      (loaded) => {
        value = loaded;
        done = true;
        return loaded;
      },
      (err) => {
        loading = undefined;
        throw err;
      },
    ));
  return Object.assign(get, { current: () => (done ? value : undefined) });
}

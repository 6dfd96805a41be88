// An adapter's attempt is company-object code (its storage, the runner hub, the gateway object)
// whose modules import the adapter registry in turn: its definition imports it dynamically, on
// first use, so there is no import cycle and the definition stays importable anywhere (request
// schemas, unit tests). From then on it is called directly.
import type { Attempt } from "./types";

export function loadedOnFirstUse(load: () => Promise<Attempt>): Attempt {
  let attempt: Attempt | undefined;
  return async (...args) => (attempt ??= await load())(...args);
}

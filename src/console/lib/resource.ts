// Data a page shows: loaded when the page mounts (or its inputs change), kept while it reloads,
// and reloaded when the followed company announces a change of the kinds the page shows (or the
// event stream asks for a resync). Pages render its three states: loading, error, data.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { messageOf } from "./api";
import { type LiveEvent, subscribe } from "./live";

export interface Resource<T> {
  data: T | undefined;
  /** The API's `error` message of the last load, if it failed. */
  error: string | null;
  loading: boolean;
  reload: () => Promise<void>;
}

export interface LiveOptions {
  /** Event types (`issue.*`, `approval.resolved`, `*`) that make the data stale; [] for none (a resync still reloads). */
  types: string[];
  /** Narrows the types to events about this page's subject. */
  when?: (event: LiveEvent) => boolean;
}

/** Reloads asked for within this many ms of each other are one reload. */
const COALESCE_MS = 120;

export function useResource<T>(load: () => Promise<T>, deps: unknown[], live?: LiveOptions): Resource<T> {
  const [state, setState] = useState<{ data: T | undefined; error: string | null; loading: boolean }>({ data: undefined, error: null, loading: true });
  const sequence = useRef(0);
  const loader = useRef(load);
  loader.current = load;

  const reload = useCallback(async () => {
    const mine = ++sequence.current;
    setState((s) => ({ ...s, loading: true }));
    try {
      const data = await loader.current();
      if (mine === sequence.current) setState({ data, error: null, loading: false });
    } catch (err) {
      if (mine === sequence.current) setState((s) => ({ data: s.data, error: messageOf(err), loading: false }));
    }
  }, []);

  useEffect(() => {
    setState({ data: undefined, error: null, loading: true });
    void reload();
  }, deps);

  const types = live ? live.types.join(",") : undefined;
  const when = useRef(live?.when);
  when.current = live?.when;
  useEffect(() => {
    if (types === undefined) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = subscribe(types ? types.split(",") : [], (event) => {
      if (event.type !== "resync" && when.current && !when.current(event as LiveEvent)) return;
      clearTimeout(timer);
      timer = setTimeout(() => void reload(), COALESCE_MS);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [types, reload]);

  return { ...state, reload };
}

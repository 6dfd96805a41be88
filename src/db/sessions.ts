// D1 Sessions: which copy of the database a request reads. Reads that tolerate replica lag (GET
// handlers) run in a session that starts anywhere ("first-unconstrained") or — when the caller
// sends the bookmark of its last response — at least as fresh as that bookmark, so a caller always
// sees its own writes. Mutations (and every command's reads and writes) start at the primary.
// Responses carry the session's bookmark in `x-d1-bookmark`.
//
// Drizzle is built once per binding (src/db/client.ts); the binding it is built over routes each
// statement to the session of the current request (AsyncLocalStorage), or to the binding itself
// outside one — so no per-request drizzle instance is needed.
import { AsyncLocalStorage } from "node:async_hooks";

export const BOOKMARK_HEADER = "x-d1-bookmark";

/** The request's read session and the newest bookmark a write in this request produced. */
export interface RequestSession {
  session: D1DatabaseSession;
  /** The binding the session was opened on: only its statements go to the session. */
  source: D1Database;
  writeBookmark?: string | null;
}

/** Opens a session on `d1` for the current request (or command). */
export const openSession = (d1: D1Database, constraint: string): RequestSession => ({ session: d1.withSession(constraint as D1SessionConstraint), source: d1 });

const current = new AsyncLocalStorage<RequestSession>();

/** Runs `fn` with its D1 statements in `session`. */
export const withD1Session = <T>(session: RequestSession, fn: () => T): T => current.run(session, fn);
export const currentD1Session = (): RequestSession | undefined => current.getStore();

/** Bookmarks are `<hex>-<hex>-…` strings; one we did not hand out is ignored, not an error. */
/** With shards the bookmark names its database first (`DB_SHARD_0:<bookmark>`, src/db/shards.ts). */
const BOOKMARK = /^(?:DB(?:_SHARD_\d{1,4})?:)?[0-9a-f]{1,64}(-[0-9a-f]{1,64}){1,6}$/i;
export const validBookmark = (value: string | undefined | null): string | null => (value && value.length <= 512 && BOOKMARK.test(value) ? value : null);

/** The binding with every statement routed to the current request's session (if any). */
export function sessionRouted(d1: D1Database): D1Database {
  const target = () => {
    const store = current.getStore();
    return store && store.source === d1 ? store.session : d1;
  };
  return {
    prepare: (query: string) => target().prepare(query),
    batch: <T>(statements: D1PreparedStatement[]) => target().batch<T>(statements),
    exec: (query: string) => d1.exec(query),
    withSession: (constraint?: string) => d1.withSession(constraint as D1SessionConstraint),
    dump: () => d1.dump(),
  } as D1Database;
}

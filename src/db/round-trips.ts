// Counts D1 round trips (and company Durable Object hops) per request, by phase: before the
// handler (auth), in the handler, inside the serialised command. The Worker reports them in a
// `Server-Timing` header, so tests can assert a request's cost on any machine and a client or a
// bench can see it. A round trip is one `batch()` / `exec()` or one statement's first/all/run/raw.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Faults } from "./faults";
import { DIRECTORY, DIRECTORY_BINDING, routerOver, shardNames } from "./shards";

export type Phase = "auth" | "handler" | "command";

export class RoundTrips {
  phase: Phase = "auth";
  readonly d1: Record<Phase, number> = { auth: 0, handler: 0, command: 0 };
  /** Of those, the directory's (src/db/shards.ts); the rest went to company shards. */
  readonly directory: Record<Phase, number> = { auth: 0, handler: 0, command: 0 };
  companyObjectCalls = 0;
  /** Test-only faults armed for this request or command (src/db/faults.ts); absent unless TEST_FAULTS = "1". */
  faults?: Faults;

  add(phase: Phase, n: number, directory = false) {
    this.d1[phase] += n;
    if (directory) this.directory[phase] += n;
  }

  /** `Server-Timing` metrics: d1-auth, d1-handler, d1-command (round trips) and do (object calls). */
  serverTiming(): string {
    return [
      `d1-auth;desc=${this.d1.auth}`,
      `d1-handler;desc=${this.d1.handler}`,
      `d1-command;desc=${this.d1.command}`,
      `do;desc=${this.companyObjectCalls}`,
      `d1-directory-auth;desc=${this.directory.auth}`,
      `d1-directory-handler;desc=${this.directory.handler}`,
    ].join(", ");
  }
}

const storage = new AsyncLocalStorage<RoundTrips>();

export const withRoundTrips = <T>(counter: RoundTrips, fn: () => T): T => storage.run(counter, fn);
export const currentRoundTrips = (): RoundTrips | undefined => storage.getStore();
export const currentFaults = (): Faults | undefined => storage.getStore()?.faults;

/**
 * Runs work the response does not wait for (`waitUntil`: a key's lastUsedAt) outside the request's
 * count: it adds no latency, so it is not one of the request's round trips.
 */
export const afterResponse = <T>(fn: () => T): T => storage.exit(fn);

/** Counts one round trip; with faults armed (tests only), fails it when a rule names it. */
const count = (batch: boolean, sql: () => readonly string[], directory: boolean) => {
  const counter = storage.getStore();
  if (!counter) return;
  counter.add(counter.phase, 1, directory);
  if (counter.faults) counter.faults.d1(batch, sql());
};

/** A round trip's call, counted first; an injected fault becomes its rejection (every D1 call answers a promise). */
function roundTrip<T>(batch: boolean, sql: () => readonly string[], call: () => T, directory = false): T {
  try {
    count(batch, sql, directory);
  } catch (err) {
    return Promise.reject(err) as T;
  }
  return call();
}

const unwrapped = new WeakMap<object, { statement: D1PreparedStatement; query: string }>();
const TERMINAL = new Set(["first", "all", "run", "raw"]);

function countedStatement(statement: D1PreparedStatement, query: string, directory: boolean): D1PreparedStatement {
  const proxy = new Proxy(statement, {
    get(target, property) {
      if (property === "bind") return (...values: unknown[]) => countedStatement(target.bind(...values), query, directory);
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (TERMINAL.has(property as string)) {
        return (...args: unknown[]) =>
          roundTrip(
            false,
            () => [query],
            () => (value as (...a: unknown[]) => unknown).apply(target, args),
            directory,
          );
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  unwrapped.set(proxy, { statement, query });
  return proxy;
}

const real = (statements: D1PreparedStatement[]) => statements.map((s) => unwrapped.get(s)?.statement ?? s);
const queries = (statements: D1PreparedStatement[]) => () => statements.map((s) => unwrapped.get(s)?.query ?? "");

function countedSession(session: D1DatabaseSession, directory: boolean): D1DatabaseSession {
  return {
    prepare: (query: string) => countedStatement(session.prepare(query), query, directory),
    batch: <T>(statements: D1PreparedStatement[]) => roundTrip(true, queries(statements), () => session.batch<T>(real(statements)), directory),
    getBookmark: () => session.getBookmark(),
  };
}

const counted = [new WeakMap<D1Database, D1Database>(), new WeakMap<D1Database, D1Database>()];

/** The binding with every round trip counted (one wrapper per binding and role per isolate); `directory` counts them as the directory's too. */
export function countedD1(d1: D1Database, directory = false): D1Database {
  const cache = counted[directory ? 1 : 0];
  let wrapper = cache.get(d1);
  if (!wrapper) {
    wrapper = {
      prepare: (query: string) => countedStatement(d1.prepare(query), query, directory),
      batch: <T>(statements: D1PreparedStatement[]) => roundTrip(true, queries(statements), () => d1.batch<T>(real(statements)), directory),
      exec: (query: string) =>
        roundTrip(
          true,
          () => [query],
          () => d1.exec(query),
          directory,
        ),
      withSession: (constraint?: string) => countedSession(d1.withSession(constraint as D1SessionConstraint), directory),
      dump: () => d1.dump(),
    } as D1Database;
    cache.set(d1, wrapper);
  }
  return wrapper;
}

const routedEnvs = new WeakMap<Env, Env>();
const baseEnvs = new WeakMap<Env, Env>();

/**
 * `env` with `DB` replaced by the shard router (src/db/shards.ts) over counted bindings: the
 * directory, and each shard (memoised per env object).
 */
export function withCountedD1(env: Env): Env {
  let wrapped = routedEnvs.get(env);
  if (!wrapped) {
    const bindings = env as unknown as Record<string, D1Database>;
    const router = routerOver(shardNames(env), (name) => (name === DIRECTORY ? countedD1(env.DB, true) : countedD1(bindings[name])));
    wrapped = Object.assign(Object.create(Object.getPrototypeOf(env)), env, { DB: router }) as Env;
    routedEnvs.set(env, wrapped);
    routedEnvs.set(wrapped, wrapped);
    baseEnvs.set(wrapped, env);
  }
  return wrapped;
}

/** A database by its binding name, unrouted (moves, backups, migrations checks work on whole databases). */
export function databaseNamed(env: Env, name: string): D1Database {
  const base = baseEnvs.get(env) ?? env;
  return countedD1((base as unknown as Record<string, D1Database>)[name], name === DIRECTORY_BINDING);
}

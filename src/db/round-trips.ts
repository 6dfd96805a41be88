// Counts D1 round trips (and company Durable Object hops) per request, by phase: before the
// handler (auth), in the handler, inside the serialised command. The Worker reports them in a
// `Server-Timing` header, so tests can assert a request's cost on any machine and a client or a
// bench can see it. A round trip is one `batch()` / `exec()` or one statement's first/all/run/raw.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Faults } from "./faults";

export type Phase = "auth" | "handler" | "command";

export class RoundTrips {
  phase: Phase = "auth";
  readonly d1: Record<Phase, number> = { auth: 0, handler: 0, command: 0 };
  companyObjectCalls = 0;
  /** Test-only faults armed for this request or command (src/db/faults.ts); absent unless TEST_FAULTS = "1". */
  faults?: Faults;

  add(phase: Phase, n: number) {
    this.d1[phase] += n;
  }

  /** `Server-Timing` metrics: d1-auth, d1-handler, d1-command (round trips) and do (object calls). */
  serverTiming(): string {
    return [
      `d1-auth;desc=${this.d1.auth}`,
      `d1-handler;desc=${this.d1.handler}`,
      `d1-command;desc=${this.d1.command}`,
      `do;desc=${this.companyObjectCalls}`,
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
const count = (batch: boolean, sql: () => readonly string[]) => {
  const counter = storage.getStore();
  if (!counter) return;
  counter.add(counter.phase, 1);
  if (counter.faults) counter.faults.d1(batch, sql());
};

/** A round trip's call, counted first; an injected fault becomes its rejection (every D1 call answers a promise). */
function roundTrip<T>(batch: boolean, sql: () => readonly string[], call: () => T): T {
  try {
    count(batch, sql);
  } catch (err) {
    return Promise.reject(err) as T;
  }
  return call();
}

const unwrapped = new WeakMap<object, { statement: D1PreparedStatement; query: string }>();
const TERMINAL = new Set(["first", "all", "run", "raw"]);

function countedStatement(statement: D1PreparedStatement, query: string): D1PreparedStatement {
  const proxy = new Proxy(statement, {
    get(target, property) {
      if (property === "bind") return (...values: unknown[]) => countedStatement(target.bind(...values), query);
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (TERMINAL.has(property as string)) {
        return (...args: unknown[]) =>
          roundTrip(
            false,
            () => [query],
            () => (value as (...a: unknown[]) => unknown).apply(target, args),
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

function countedSession(session: D1DatabaseSession): D1DatabaseSession {
  return {
    prepare: (query: string) => countedStatement(session.prepare(query), query),
    batch: <T>(statements: D1PreparedStatement[]) => roundTrip(true, queries(statements), () => session.batch<T>(real(statements))),
    getBookmark: () => session.getBookmark(),
  };
}

const counted = new WeakMap<D1Database, D1Database>();

/** The binding with every round trip counted (one wrapper per binding per isolate). */
export function countedD1(d1: D1Database): D1Database {
  let wrapper = counted.get(d1);
  if (!wrapper) {
    wrapper = {
      prepare: (query: string) => countedStatement(d1.prepare(query), query),
      batch: <T>(statements: D1PreparedStatement[]) => roundTrip(true, queries(statements), () => d1.batch<T>(real(statements))),
      exec: (query: string) =>
        roundTrip(
          true,
          () => [query],
          () => d1.exec(query),
        ),
      withSession: (constraint?: string) => countedSession(d1.withSession(constraint as D1SessionConstraint)),
      dump: () => d1.dump(),
    } as D1Database;
    counted.set(d1, wrapper);
    counted.set(wrapper, wrapper);
  }
  return wrapper;
}

const countedEnvs = new WeakMap<Env, Env>();

/** `env` with its D1 binding counted (memoised per env object). */
export function withCountedD1(env: Env): Env {
  let wrapped = countedEnvs.get(env);
  if (!wrapped) {
    wrapped = Object.assign(Object.create(Object.getPrototypeOf(env)), env, { DB: countedD1(env.DB) }) as Env;
    countedEnvs.set(env, wrapped);
    countedEnvs.set(wrapped, wrapped);
  }
  return wrapped;
}

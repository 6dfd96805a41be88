// Shards: every company's rows live in one D1 database of several (`DB_SHARD_0 … DB_SHARD_{N-1}`,
// or `DB` itself when no shard is bound); `DB` is also the directory: users, sessions, keys, instance
// settings, plugins and the tables of src/db/schema/directory.ts. Every database runs the same
// migrations.
//
// Code keeps using `createDb(env.DB)`: `env.DB` is a router (withRoutedD1) that sends each statement
// by the tables it names — directory tables to `DB`, every other table to the current company's
// shard. The current company is the request's (or the company object's) shard scope: set once the
// company is known (the path's company, an agent's company, the entity an entity route loaded);
// before that, a company-table read goes to every candidate shard (the caller's companies' shards)
// and the rows are concatenated — ids are unique across shards, so a lookup by id finds its one row.
// A write outside a scope, or one batch writing to two databases, is a programming error (thrown).
import { AsyncLocalStorage } from "node:async_hooks";
import { getTableName } from "drizzle-orm";
import * as schema from "./schema";
import { isDirectoryTable } from "./schema/homes";

export const DIRECTORY_BINDING = "DB";
/** The router's name for the directory (in a single-database deployment `DB` is also the only shard, counted apart). */
export const DIRECTORY = "@directory";
const SHARD_BINDING = /^DB_SHARD_(\d+)$/;

/**
 * Tables of the directory (`DB`): the ones marked `inDirectory` where they are defined
 * (src/db/schema/homes.ts); every other table is company-scoped and lives on a shard. One named
 * exception: `d1_migrations`, wrangler's own bookkeeping in every database (no drizzle table).
 */
export const DIRECTORY_TABLES: ReadonlySet<string> = new Set([
  ...(Object.values(schema) as unknown[]).filter(isDirectoryTable).map((table) => getTableName(table)),
  "d1_migrations",
]);

const namesByEnv = new WeakMap<object, string[]>();

/** This deployment's shard bindings, in order (`DB_SHARD_0`, `DB_SHARD_1`, …), or `["DB"]` when none is bound. */
export function shardNames(env: object): string[] {
  let names = namesByEnv.get(env);
  if (!names) {
    const bound = Object.keys(env)
      .map((key) => SHARD_BINDING.exec(key))
      .filter((m): m is RegExpExecArray => !!m)
      .sort((a, b) => Number(a[1]) - Number(b[1]))
      .map((m) => m[0]);
    names = bound.length ? bound : [DIRECTORY_BINDING];
    namesByEnv.set(env, names);
  }
  return names;
}

/** Whether `name` is a database a company can live on here (a shard binding, or `DB` for companies placed before shards). */
export const isShardName = (env: object, name: string) => name === DIRECTORY_BINDING || shardNames(env).includes(name);

// ---- the scope: which company's shard company-table statements go to -------------------------

export interface ShardScope {
  /** The shard every company-table statement goes to, once known. */
  shard: string | null;
  companyId: string | null;
  /** Before the shard is known: the shards a company-table read may find its rows on (null: all). */
  candidates: readonly string[] | null;
}

const scopes = new AsyncLocalStorage<ShardScope>();

export const withShardScope = <T>(scope: ShardScope, fn: () => T): T => scopes.run(scope, fn);
export const currentShardScope = (): ShardScope | undefined => scopes.getStore();
/** A scope fixed on one company's shard (the company's object, per-company work of the cron). */
export const companyScope = (companyId: string, shard: string): ShardScope => ({ shard, companyId, candidates: null });

/** From here on, this request's company-table statements go to `shard` (the company is known now). */
export function narrowShardScope(companyId: string, shard: string) {
  const scope = scopes.getStore();
  if (!scope) return;
  scope.shard = shard;
  scope.companyId = companyId;
  scope.candidates = null;
}

// ---- statement homes -------------------------------------------------------------------------

type Home = "directory" | "company";
const TABLE_REFERENCE = /\b(?:from|join|into|update|table)\s+[`"[]?([A-Za-z_][A-Za-z0-9_]*)/gi;
const homes = new Map<string, Home>();
/**
 * Words after FROM/UPDATE/… that are not tables (`ON CONFLICT … DO UPDATE SET`, table-valued
 * functions), and `command_guards`, the one-row scratch table every database has for a batch's
 * guard (src/db/guards.ts): a guard goes where the tables of its condition live.
 */
const NOT_TABLES = new Set(["set", "select", "json_each", "json_tree", "values", "command_guards"]);

/** Where a statement's tables live; one naming tables of both kinds is refused (it would read an empty copy). */
export function statementHome(query: string): Home {
  let home = homes.get(query);
  if (home) return home;
  let directory = 0;
  let company = 0;
  for (const match of query.matchAll(TABLE_REFERENCE)) {
    const name = match[1].toLowerCase();
    if (NOT_TABLES.has(name)) continue;
    if (DIRECTORY_TABLES.has(name)) directory++;
    else company++;
  }
  if (directory && company) throw new Error(`A statement names directory and company tables (they live in different databases): ${query.slice(0, 200)}`);
  home = directory ? "directory" : "company";
  if (homes.size > 5000) homes.clear();
  homes.set(query, home);
  return home;
}

const WRITE = /^\s*(?:with\b[\s\S]*?\)\s*)?(insert|update|delete|replace)\b/i;
const isWrite = (query: string) => WRITE.test(query);

// ---- the router --------------------------------------------------------------------------------

type Target = D1Database | D1DatabaseSession;

/** A statement bound for one database (`target`), or for several (a read before the scope is known). */
class RoutedStatement {
  constructor(
    readonly query: string,
    readonly parts: { target: string; statement: D1PreparedStatement }[],
    private readonly fanOutWrites?: FanOutWrites,
  ) {}

  bind(...values: unknown[]): RoutedStatement {
    return new RoutedStatement(
      this.query,
      this.parts.map((p) => ({ target: p.target, statement: p.statement.bind(...values) })),
      this.fanOutWrites,
    );
  }

  private single(): D1PreparedStatement | null {
    return this.parts.length === 1 ? this.parts[0].statement : null;
  }

  private refuseWrite() {
    if (isWrite(this.query) && !this.fanOutWrites) throw new Error(`A company-table write outside a company's scope: ${this.query.slice(0, 200)}`);
  }

  first<T>(column?: string): Promise<T | null> {
    const one = this.single();
    if (one) return column === undefined ? one.first<T>() : one.first<T>(column);
    this.refuseWrite();
    if (column !== undefined) return this.first<Record<string, T>>().then((row) => row?.[column] ?? null);
    return this.all<T>().then((result) => result.results[0] ?? null);
  }

  run<T>(): Promise<D1Result<T>> {
    const one = this.single();
    if (one) return one.run<T>();
    this.refuseWrite();
    return this.all<T>();
  }

  all<T>(): Promise<D1Result<T>> {
    const one = this.single();
    if (one) return one.all<T>();
    this.refuseWrite();
    if (this.fanOutWrites && isWrite(this.query)) return this.fanOutWrites(this.parts.map((p) => () => p.statement.all<T>())).then(mergeResults);
    return Promise.all(this.parts.map((p) => p.statement.all<T>())).then((results) => mergeResults(results, this.query));
  }

  raw<T>(options?: { columnNames?: boolean }): Promise<T[]> {
    const one = this.single();
    if (one) return (options?.columnNames ? one.raw<T>({ columnNames: true }) : one.raw<T>()) as Promise<T[]>;
    this.refuseWrite();
    return Promise.all(this.parts.map((p) => (options?.columnNames ? p.statement.raw<T>({ columnNames: true }) : p.statement.raw<T>()))).then((sets) => {
      const header = options?.columnNames ? (sets[0] as T[]).slice(0, 1) : [];
      return [
        ...header,
        ...mergeAcrossShards(
          this.query,
          sets.map((set) => (set as T[]).slice(header.length)),
        ),
      ];
    }) as Promise<T[]>;
  }
}

function mergeResults<T>(results: D1Result<T>[], query = ""): D1Result<T> {
  const changes = results.reduce((sum, r) => sum + (r.meta?.changes ?? 0), 0);
  const rows = mergeAcrossShards(
    query,
    results.map((r) => r.results ?? []),
  );
  return { ...results[0], meta: { ...results[0].meta, changes }, results: rows };
}

/** A read whose rows came from several shards and cannot be merged correctly (it orders, limits, groups, …): a programming error. */
export class ShardFanOutError extends Error {
  constructor(query: string) {
    super(
      `A read that orders, limits, groups or aggregates found rows on several shards; run it on the one shard it names (narrow the scope, onShardOf) instead of concatenating: ${query.slice(0, 200)}`,
    );
  }
}

const AGGREGATE = /^\s*select\s+(?:count|sum|total)\s*\(/i;
const OTHER_AGGREGATE = /\b(?:min|max|avg|group_concat|json_group_array|json_group_object)\s*\(/i;
const DISTINCT = /^\s*select\s+distinct\b/i;
const GROUPED = /\bgroup\s+by\b/i;
/** Clauses whose meaning depends on seeing every row at once (a concatenation would ignore them). */
const ORDER_OR_LIMIT = /\border\s+by\b|\blimit\b|\boffset\b|\bhaving\b|\bunion\s+all\b|\bexcept\b|\bintersect\b|\bover\s*\(/i;
/** A UNION (not UNION ALL) answers each row once, like SELECT DISTINCT. */
const UNION = /\bunion\b(?!\s+all\b)/i;

/** A row that says nothing: every value null or 0 (what an aggregate answers on a shard without the rows). */
const isEmptyRow = (row: unknown) => Object.values(row as Record<string, unknown>).every((v) => v === null || v === 0);

/**
 * The rows of a read that went to several shards, merged so the answer is the one a single database
 * would give, or a ShardFanOutError: rows from one shard only are that shard's answer as it is
 * (ordering, limits and aggregates included — a lookup by id finds its one shard); from several,
 * a plain read is their union, `count/sum/total` without GROUP BY add up, `SELECT DISTINCT` and
 * `UNION` keep each row once — and anything that orders, limits, groups or aggregates otherwise is
 * refused.
 */
export function mergeAcrossShards<T>(query: string, perShard: T[][]): T[] {
  const from = query.search(/\bfrom\b/i);
  const selectList = from >= 0 ? query.slice(0, from) : query;
  const grouped = GROUPED.test(query);
  const sums = AGGREGATE.test(query) && !OTHER_AGGREGATE.test(selectList) && !grouped;
  const aggregate = (AGGREGATE.test(query) || OTHER_AGGREGATE.test(selectList)) && !grouped;
  const informative = perShard.filter((rows) => rows.length > 0 && !(aggregate && rows.every(isEmptyRow)));
  if (informative.length <= 1) return informative[0] ?? perShard[0] ?? [];
  if (sums && !ORDER_OR_LIMIT.test(query)) return [sumRows(informative.flat() as Record<string, unknown>[], Array.isArray(informative[0][0])) as T];
  if (aggregate || grouped || ORDER_OR_LIMIT.test(query)) throw new ShardFanOutError(query);
  const rows = informative.flat();
  if (!DISTINCT.test(query) && !UNION.test(query)) return rows;
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = JSON.stringify(row);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function sumRows(rows: Record<string, unknown>[], array = false): Record<string, unknown> | unknown[] {
  const out: Record<string, unknown> = array ? ([...(rows[0] as unknown as unknown[])] as unknown as Record<string, unknown>) : { ...rows[0] };
  for (const key of Object.keys(out))
    if (rows.every((r) => typeof r[key] === "number" || r[key] === null)) out[key] = rows.reduce((sum, r) => sum + ((r[key] as number) ?? 0), 0);
  return out;
}

/**
 * How a write outside a company's scope is carried out, when it is not refused: test tooling only
 * (test/helpers/fixtures.ts tries it on every shard). The Worker never sets it: such a write throws.
 */
export type FanOutWrites = <R>(calls: Array<() => Promise<R>>) => Promise<R[]>;

interface RouterSource {
  /** The real (counted) binding or session for a database name. */
  target(name: string): Target;
  allShards: readonly string[];
  /** Test tooling only (see FanOutWrites). */
  fanOutWrites?: FanOutWrites;
}

/** Sends each statement to the database of its tables and the current scope (see the top of this file). */
export class D1Router {
  constructor(
    private readonly source: RouterSource,
    private readonly bindings: (name: string) => D1Database,
    private readonly opened?: Map<string, D1DatabaseSession>,
  ) {}

  /** The databases a statement goes to now. */
  targetsOf(query: string): readonly string[] {
    if (statementHome(query) === "directory") return [DIRECTORY];
    const scope = scopes.getStore();
    if (scope?.shard) return [scope.shard];
    return scope?.candidates?.length ? scope.candidates : this.source.allShards;
  }

  prepare(query: string): D1PreparedStatement {
    const targets = this.targetsOf(query);
    return new RoutedStatement(
      query,
      targets.map((target) => ({ target, statement: this.source.target(target).prepare(query) })),
      this.source.fanOutWrites,
    ) as unknown as D1PreparedStatement;
  }

  async batch<T>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    const routed = statements as unknown as RoutedStatement[];
    const groups = new Map<string, { index: number; statement: D1PreparedStatement }[]>();
    for (const [index, s] of routed.entries()) {
      for (const part of s.parts) {
        const group = groups.get(part.target) ?? [];
        group.push({ index, statement: part.statement });
        groups.set(part.target, group);
      }
    }
    if (groups.size === 1) {
      const [[name, group]] = groups;
      return this.source.target(name).batch<T>(group.map((g) => g.statement));
    }
    const writes = routed.filter((s) => isWrite(s.query));
    const fanOut = this.source.fanOutWrites;
    if (writes.length && !fanOut)
      throw new Error(`A batch writing to more than one database (one transaction cannot span them): ${writes[0].query.slice(0, 200)}`);
    const runGroup = async ([name, group]: [string, { index: number; statement: D1PreparedStatement }[]]) => ({
      group,
      results: await this.source.target(name).batch<T>(group.map((g) => g.statement)),
    });
    const perGroup = writes.length && fanOut ? await fanOut([...groups].map((entry) => () => runGroup(entry))) : await Promise.all([...groups].map(runGroup));
    const merged: D1Result<T>[][] = routed.map(() => []);
    for (const { group, results } of perGroup) group.forEach((g, i) => merged[g.index].push(results[i]));
    return merged.map((parts, i) => (parts.length === 1 ? parts[0] : mergeResults(parts, routed[i].query)));
  }

  exec(query: string): Promise<D1ExecResult> {
    const targets = this.targetsOf(query);
    if (targets.length !== 1) throw new Error("exec outside a company's scope");
    const target = this.source.target(targets[0]);
    if (!("exec" in target)) throw new Error("exec is not available in a D1 session");
    return target.exec(query);
  }

  /**
   * A session per database, opened on first use with `constraint`; a bookmark names its database
   * (`<binding>:<bookmark>`, see src/db/sessions.ts) and constrains only that one.
   */
  withSession(constraint?: string): D1Router & { getBookmark(): string | null } {
    const opened = new Map<string, D1DatabaseSession>();
    const named = /^(DB(?:_SHARD_\d+)?):(.+)$/.exec(constraint ?? "");
    const constraintFor = (name: string): string => {
      const database = name === DIRECTORY ? DIRECTORY_BINDING : name;
      if (!named) return constraint ?? "first-unconstrained";
      return named[1] === database ? named[2] : "first-unconstrained";
    };
    const session = (name: string) => {
      let s = opened.get(name);
      if (!s) opened.set(name, (s = this.bindings(name).withSession(constraintFor(name) as D1SessionConstraint)));
      return s;
    };
    const router = new D1Router({ target: session, allShards: this.source.allShards, fanOutWrites: this.source.fanOutWrites }, this.bindings, opened);
    return Object.assign(router, { getBookmark: () => router.bookmark() });
  }

  /** The bookmark of the session this request's company used (else the directory's), naming its database when shards are bound. */
  bookmark(): string | null {
    if (!this.opened) return null;
    const scope = scopes.getStore();
    const name = scope?.shard && this.opened.has(scope.shard) ? scope.shard : this.opened.has(DIRECTORY) ? DIRECTORY : [...this.opened.keys()][0];
    const bookmark = name ? this.opened.get(name)?.getBookmark() : null;
    if (!bookmark) return null;
    const single = this.source.allShards.length === 1 && this.source.allShards[0] === DIRECTORY_BINDING;
    return single ? bookmark : `${name === DIRECTORY ? DIRECTORY_BINDING : name}:${bookmark}`;
  }

  dump(): Promise<ArrayBuffer> {
    throw new Error("dump is not available through the shard router");
  }
}

/** Builds the router over `binding(name)` (`DIRECTORY` or a shard name; each already counted, see round-trips.ts). */
export function routerOver(allShards: readonly string[], binding: (name: string) => D1Database, options: { fanOutWrites?: FanOutWrites } = {}): D1Database {
  return new D1Router({ target: binding, allShards, fanOutWrites: options.fanOutWrites }, binding) as unknown as D1Database;
}

/**
 * Runs `fn` once per shard, each with its statements scoped to that shard, at most `concurrency`
 * at a time (cross-company work: the cron, retention, backups, instance statistics).
 */
export async function forEachShard<T>(env: object, fn: (shard: string) => Promise<T>, concurrency = 4): Promise<T[]> {
  const names = shardNames(env);
  const results: T[] = new Array(names.length);
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const i = next++;
      results[i] = await withShardScope({ shard: names[i], companyId: null, candidates: null }, async () => await fn(names[i]));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, names.length) }, worker));
  return results;
}

/**
 * Runs `fn` with company-table reads on every shard (rows concatenated): for telling "another
 * company's" from "missing" when an id is not on the caller's shard (a rare, failing path).
 */
export const onEveryShard = <T>(fn: () => PromiseLike<T>): Promise<T> =>
  // Awaited inside the scope: a drizzle query is a thenable that runs only when awaited.
  scopes.run({ shard: null, companyId: null, candidates: null }, async () => await fn());

/**
 * `read()` on the current scope, and when it finds nothing, on every shard: an id that is not on
 * the company's shard may be another company's on another (refused as such, not taken as unknown).
 * One database: the first answer is the only one.
 */
export async function onThisOrAnyShard<T>(env: object, read: () => PromiseLike<T | undefined | null>): Promise<T | undefined | null> {
  const here = await read();
  if (here || shardNames(env).length === 1) return here;
  return onOtherShards(env, read);
}

/**
 * Runs `fn` with company-table reads on every shard but the scope's own (rows concatenated): the
 * rest of an every-shard lookup whose first read, on the company's shard, found nothing.
 */
export function onOtherShards<T>(env: object, fn: () => PromiseLike<T>): Promise<T> {
  const here = scopes.getStore()?.shard;
  const others = shardNames(env).filter((name) => name !== here);
  if (!others.length) return Promise.resolve(fn());
  return scopes.run({ shard: null, companyId: null, candidates: others }, async () => await fn());
}

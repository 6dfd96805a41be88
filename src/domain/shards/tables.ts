// The company's rows a move copies (src/domain/shards/move.ts), read from the drizzle schema: every
// shard table with a `company_id` column and `companies` itself (by `id`), in copy order — each
// table after the tables it references (D1 enforces foreign keys) and after the tables whose insert
// triggers write into it (so those written rows can be cleared before the table's own copy) — plus
// the wiki's FTS5 indexes, which commands write (not triggers) and so are copied too.
import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../db/schema";
import { DIRECTORY_TABLES } from "../../db/shards";
import { wikiPageSearch, wikiSourceSearch } from "../wiki/search-index";

export interface CompanyTable {
  kind: "rows";
  name: string;
  /** Column names, in the order rows are read, written and hashed. */
  columns: string[];
  /** The column naming the company: `company_id`, or `id` for `companies`. */
  companyColumn: string;
  /** Company tables it references (copied before it). */
  parents: string[];
  /** A column referencing the table itself (agents.reports_to, goals.parent_id): referenced rows go first. */
  selfReference: { column: string; references: string } | null;
  /** Columns renumbered on the target (an autoincrement key and its copies), by the offset they share. */
  renumbered: Record<string, "eventSeq">;
  /** Columns left out of the verification hash: written outside the company object, so a move does not wait for them. */
  unverified: string[];
}

/** An FTS5 index whose rowid is its owner row's rowid (the owner's rows are copied first; rowids differ per database). */
export interface SearchIndex {
  kind: "search";
  name: string;
  owner: string;
  columns: string[];
}

export type CopyStep = CompanyTable | SearchIndex;

/**
 * Insert triggers that write rows of other company tables (migrations 0017, 0018, 0024, 0025): run
 * events and wiki query progress from `heartbeat_runs`, `run.event` from `heartbeat_run_events`,
 * webhook deliveries and the notification queue from `company_events`. The writer is
 * copied first; what its triggers wrote is cleared before the written table is copied. (Triggers
 * into `issue_search`, `issue_comment_search` and `directory_outbox` are handled where they land:
 * the search index is rebuilt by them, the outbox rows are deleted in the batch that wrote them.)
 */
export const TRIGGER_WRITES: Record<string, readonly string[]> = {
  heartbeat_runs: ["company_events", "wiki_operations", "wiki_query_sessions"],
  heartbeat_run_events: ["company_events"],
  company_events: ["webhook_deliveries", "notification_queue"],
};

/** `company_events.seq` is an AUTOINCREMENT key per database: a move renumbers it (keeping its order) above the target's. */
const RENUMBERED: Record<string, Record<string, "eventSeq">> = {
  company_events: { seq: "eventSeq" },
  webhook_deliveries: { event_seq: "eventSeq" },
  notification_queue: { event_seq: "eventSeq" },
};

/** Written after a request's response, at most once a minute per key (src/http/actor.ts): not held by the fence. */
const UNVERIFIED: Record<string, string[]> = { agent_api_keys: ["last_used_at"] };

const SEARCH_INDEXES: Array<{ table: SQLiteTable; owner: string }> = [
  { table: wikiPageSearch, owner: "wiki_pages" },
  { table: wikiSourceSearch, owner: "wiki_sources" },
];

function describe(table: SQLiteTable): CompanyTable | null {
  const config = getTableConfig(table);
  const columns = config.columns.map((c) => c.name);
  const isCompanies = config.name === "companies";
  if (!isCompanies && (!columns.includes("company_id") || DIRECTORY_TABLES.has(config.name) || config.name.startsWith("directory_"))) return null;
  const references = config.foreignKeys.map((fk) => {
    const ref = fk.reference();
    return { column: ref.columns[0].name, table: getTableConfig(ref.foreignTable).name, foreignColumn: ref.foreignColumns[0].name };
  });
  const self = references.find((r) => r.table === config.name);
  return {
    kind: "rows",
    name: config.name,
    columns,
    companyColumn: isCompanies ? "id" : "company_id",
    parents: [...new Set(references.filter((r) => r.table !== config.name).map((r) => r.table))],
    selfReference: self ? { column: self.column, references: self.foreignColumn } : null,
    renumbered: RENUMBERED[config.name] ?? {},
    unverified: UNVERIFIED[config.name] ?? [],
  };
}

let cached: readonly CompanyTable[] | undefined;

/** Every company table, parents (and trigger writers) first; ties in name order. */
export function companyTables(): readonly CompanyTable[] {
  cached ??= orderTables();
  return cached;
}

function orderTables(): CompanyTable[] {
  const tables = new Map<string, CompanyTable>();
  for (const value of Object.values(schema)) {
    if (!is(value, SQLiteTable)) continue;
    const described = describe(value);
    if (described) tables.set(described.name, described);
  }
  const before = new Map<string, Set<string>>([...tables.keys()].map((name) => [name, new Set<string>()]));
  for (const table of tables.values()) for (const parent of table.parents) if (tables.has(parent)) before.get(table.name)!.add(parent);
  for (const [writer, written] of Object.entries(TRIGGER_WRITES)) for (const name of written) before.get(name)?.add(writer);
  const ordered: CompanyTable[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.size) {
    const ready = [...tables.keys()].filter((name) => !placed.has(name) && [...before.get(name)!].every((p) => placed.has(p))).sort();
    if (!ready.length) throw new Error(`Company tables reference each other in a cycle: ${[...tables.keys()].filter((n) => !placed.has(n)).join(", ")}`);
    for (const name of ready) {
      placed.add(name);
      ordered.push(tables.get(name)!);
    }
  }
  return ordered;
}

/** The copy plan: every company table in order, each search index right after its owner. */
export function copyPlan(): CopyStep[] {
  const steps: CopyStep[] = [];
  for (const table of companyTables()) {
    steps.push(table);
    for (const index of SEARCH_INDEXES.filter((s) => s.owner === table.name)) {
      const config = getTableConfig(index.table);
      steps.push({ kind: "search", name: config.name, owner: index.owner, columns: config.columns.map((c) => c.name).filter((c) => c !== "rowid") });
    }
  }
  return steps;
}

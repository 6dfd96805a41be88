// One kind of entity in a company package (src/domain/portability/format.ts) and the three things
// done with it: its export part writes its files, its parse part reads them back (checked by its
// zod schema), its apply part turns the planned items into rows. export.ts, parse.ts and apply.ts
// are loops over the kinds (./index.ts); a new field is a change to its kind's module only.
import type { z } from "zod";
import type { Statement } from "../../../db/batch";
import type { Db, schema } from "../../../db/client";
import type { ReadBatch } from "../../../db/read-batch";
import type { CommandContext } from "../../../company/command";
import type { Include, PackageFiles } from "../format";
import type { ImportPlan, TargetSnapshot } from "../plan";

/** The kinds a package file may refer to by id (checked by the parser, mapped to new ids by the import). */
export type ReferencedKind = "agents" | "goals" | "projects" | "labels" | "issues";

/** What an export hands each kind once the read batch has run. */
export interface ExportContext {
  env: Env;
  db: Db;
  companyId: string;
  /** The exported company's row. */
  company: typeof schema.companies.$inferSelect;
  include: Include;
  /** Per kind, what the manifest counts. */
  counts: Record<string, number>;
  warnings: string[];
  /** Only counting (the files are not written). */
  countsOnly: boolean;
  /** Adds a file to the package (not when only counting). */
  put(path: string, text: string): void;
  /** `dir/base.ext`, else `dir/base-2.ext`, …: a path no other file of the package has. */
  uniquePath(dir: string, base: string, ext: string): string;
  /** `id` when the package holds it, else null (counted for the export's warning). */
  held(kind: ReferencedKind, id: string | null): string | null;
  heldAll(kind: ReferencedKind, ids: string[]): string[];
  /** Literal secret-looking values redacted and secret references as placeholders (noted against `path`). */
  scrub(value: unknown, path: string): unknown;
}

/** A kind's export: its queries join the export's one read batch; `write` runs after the batch. */
export interface KindExport {
  /** Ids of the rows the package holds, when other files refer to them (references to others are written as null). */
  ids?(): string[];
  write(ctx: ExportContext): void | Promise<void>;
}

/** A package's files as the kinds read them; every problem is a 422 naming the file. */
export interface PackageReader {
  files: PackageFiles;
  has(path: string): boolean;
  /** The files directly in `dir` ending in `ext`, sorted. */
  under(dir: string, ext: string): string[];
  markdown(path: string): { fields: Record<string, unknown>; body: string | null };
  json(path: string): unknown;
  /** `value` checked by `schema`. */
  check<T extends z.ZodType>(schema: T, value: unknown, path: string): z.infer<T>;
  /** A file's body within `max` characters. */
  bounded(body: string | null, path: string, max?: number): string | null;
}

/** What an import hands each kind: the plan, the target's names and where the rows go. */
export interface ApplyContext {
  command: CommandContext;
  plan: ImportPlan;
  target: TargetSnapshot;
  /** The rows, parents before children, written in bounded batches. */
  statements: Statement[];
  /** Statements of the last batch (with the import record). */
  closing: Statement[];
  /** What to do once every batch is written. */
  afterWrite: Array<() => void>;
  /** The new id of an old id of `kind` (null when the import does not hold it). */
  map(kind: keyof ImportPlan["ids"], id: string | null | undefined): string | null;
  /** A value with the package's secret placeholders bound to the target's secrets. */
  bind(value: unknown): Record<string, unknown> | null;
  /** createdAt and updatedAt of new rows. */
  at: { createdAt: string; updatedAt: string };
}

/** A part of every issue (its comments, its documents): exported, read back and imported with it. */
export interface IssuePart<Item> {
  key: "comments" | "documents";
  /** Export: adds its read for a page of issues to the page's batch; `write` writes one issue's part. */
  exportPage(reads: { db: Db; batch: ReadBatch; issueIds: string[] }): { write(ctx: ExportContext, issueId: string, base: string): void };
  /** Parse: the part of the issue whose files are under `base` (`issues/<identifier>`). */
  parse(pkg: PackageReader, base: string): Item[];
  /** Apply: the rows of one new issue's part. */
  apply(ctx: ApplyContext, issueId: string, items: Item[]): Statement[];
}

type Element<Parsed> = Parsed extends ReadonlyArray<infer E> ? E : unknown;
/** Fields of an item that hold ids (one, or a list). */
type IdField<Item> = { [K in keyof Item]: Item[K] extends string | null | string[] ? K : never }[keyof Item] & string;

export interface PortableKind<Parsed = unknown> {
  /** Its key in `include`, the manifest counts and the parsed package. */
  key: "company" | "agents" | "goals" | "projects" | "labels" | "issues" | "routines" | "skills";
  /** One of it, in messages ("agent"). */
  noun: string;
  /** Export: adds its reads to the export's batch. */
  exportPart(reads: { db: Db; companyId: string; batch: ReadBatch }): KindExport;
  /** Parse: its files, checked. */
  parse(pkg: PackageReader): Parsed;
  /** Ids its items name, in the order they are checked; dropped when the import leaves the kind out. */
  references?: Array<{ field: string; to: ReferencedKind }>;
  /** The field naming an item's parent of the same kind: the hierarchy must not loop, and parents are written first. */
  parent?: string;
  /** Values that may hold secret placeholders (bound to the target's secrets by the import). */
  secretValues?(item: Element<Parsed>): unknown;
  /** Apply: the rows of the items the plan creates. */
  apply?(ctx: ApplyContext, parsed: Parsed): void | Promise<void>;
  /** Deletes what an import of this kind wrote (a later batch failed). */
  undo?(ctx: CommandContext, plan: ImportPlan): Statement;
}

/** A kind, its reference fields checked against its items' fields. */
export function defineKind<Parsed>(
  kind: PortableKind<Parsed> & { references?: Array<{ field: IdField<Element<Parsed>>; to: ReferencedKind }>; parent?: IdField<Element<Parsed>> },
): PortableKind {
  return kind;
}

/** The new ids of what the plan creates of `kind`. */
export const createdIds = (plan: ImportPlan, kind: keyof ImportPlan["ids"]) => [...plan.create[kind]].map((old) => plan.ids[kind].get(old)!);

/** `items` with every item after the one its `parentOf` names (parents outside `items` are ignored). */
export function parentsFirst<T extends { id: string }>(items: T[], parentOf: (item: T) => string | null): T[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  const placed = new Set<string>();
  const out: T[] = [];
  const visit = (item: T) => {
    if (placed.has(item.id)) return;
    placed.add(item.id);
    const parent = parentOf(item);
    if (parent && byId.has(parent)) visit(byId.get(parent)!);
    out.push(item);
  };
  items.forEach(visit);
  return out;
}

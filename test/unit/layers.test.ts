// The Worker's layers: which part of src/ may import which. A module imports only its own layer or
// the layers below it; an import of a higher layer (an "upward" import) fails here, so the import
// graph stays a stack without cycles between layers. The CLI and the console have boundary tests of
// their own (boundaries.test.ts, console-boundaries.test.ts). Imports of every kind count: static,
// type-only, re-exports and dynamic.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { importTable, repoRoot } from "../helpers/imports";

/**
 * Lowest first. A file belongs to the first entry whose prefix it starts with (so the named files
 * come before their folders). See src/README.md ("Layers").
 */
const LAYERS: Array<{ layer: string; paths: string[]; why: string; typesFrom?: string[] }> = [
  {
    layer: "shared",
    paths: ["protocol/", "client/", "config.ts", "lazy.ts", "bundle/"],
    why: "shared with the CLI and the console; import nothing of the Worker",
  },
  {
    layer: "base",
    paths: [
      "env.ts",
      "net/",
      "crypto/",
      "db/",
      "domain/errors.ts",
      "domain/actor.ts",
      "domain/records.ts",
      "domain/sensitive-keys.ts",
      "domain/events/catalogue.ts",
    ],
    why: "the environment's types, keys and signatures, tables and shard routing, and the leaf modules everything uses (errors, actors)",
  },
  { layer: "adapters", paths: ["adapters/"], why: "what each adapter is: its config, where it runs, how it talks to its runtime (not how a run is recorded)" },
  {
    layer: "domain",
    paths: ["domain/", "company/command.ts", "company/storage.ts", "company/object-scaffolding.ts", "company/client.ts"],
    why: "business rules: queries and commands, the command framework they are written in, and the way to call a company's objects",
    typesFrom: ["schemas"],
  },
  { layer: "schemas", paths: ["schemas/"], why: "request and response shapes (the OpenAPI document)" },
  { layer: "objects", paths: ["company/"], why: "the Durable Objects (company, events hub, gateway run) and the run engine (dispatcher, attempts, runners)" },
  {
    layer: "http",
    paths: ["http/", "auth/"],
    why: "the request's middleware, sessions and guards: with the objects' and the cron's entry points, the only code that sets a shard scope",
  },
  { layer: "surface", paths: ["routes/", "scheduler/"], why: "the HTTP routes and the cron" },
  { layer: "entry", paths: ["app.ts", "index.ts"], why: "the Worker's entry points" },
];

const table = importTable().filter((f) => !f.rel.startsWith("cli/") && !f.rel.startsWith("console/") && !f.rel.endsWith(".mjs"));
const rankOf = (rel: string) => LAYERS.findIndex((l) => l.paths.some((p) => rel === p || rel.startsWith(p) || rel === p.replace(/\.ts$/, "")));
const fileOf = (spec: string) => spec.slice("src:".length);
const source = (rel: string) => readFileSync(path.join(repoRoot, "src", rel), "utf8");
/** The modules a file imports only for their types (erased when built). */
const typeOnly = (rel: string) =>
  new Set(
    [...source(rel).matchAll(/(?:^|\n)\s*import\s+type\s[^'"]*?from\s+["'](\.[^"']+)["']/g)].map(
      (m) => `src:${path.posix.normalize(path.posix.join(path.posix.dirname(rel), m[1]))}`,
    ),
  );

describe("layers", () => {
  it("every Worker file is in a layer (a broken table would pass vacuously)", () => {
    expect(table.length).toBeGreaterThan(300);
    expect(table.filter((f) => rankOf(f.rel) < 0).map((f) => f.rel)).toEqual([]);
  });

  it("no module imports a higher layer (but a layer's named type-only imports: a command takes its request body's type)", () => {
    const upward = table.flatMap((f) => {
      const own = LAYERS[rankOf(f.rel)];
      const types = own.typesFrom ? typeOnly(f.rel) : new Set<string>();
      return f.imports
        .filter((i) => i.startsWith("src:") && !i.startsWith("src:cli/") && !i.startsWith("src:console/"))
        .filter((i) => rankOf(fileOf(i)) > rankOf(f.rel))
        .filter((i) => !(types.has(i) && own.typesFrom?.includes(LAYERS[rankOf(fileOf(i))].layer)))
        .map((i) => `${f.rel} (${own.layer}) → ${fileOf(i)} (${LAYERS[rankOf(fileOf(i))].layer})`);
    });
    expect(upward).toEqual([]);
  });

  it("a new upward import is caught (the check itself)", () => {
    expect(rankOf("domain/issues/commands.ts")).toBeLessThan(rankOf("routes/issues/issues.ts"));
    expect(rankOf("adapters/http/invoke.ts")).toBeLessThan(rankOf("company/runs/dispatcher.ts"));
    expect(LAYERS[rankOf("company/client.ts")].layer).toBe("domain");
    expect(LAYERS[rankOf("auth/session.ts")].layer).toBe("http");
  });

  it("no import cycles between the Worker's files (type-only imports aside)", () => {
    const files = new Set(table.map((f) => f.rel));
    const resolve = (spec: string) => [".ts", ".tsx", "/index.ts", ""].map((ext) => fileOf(spec) + ext).find((rel) => files.has(rel)) ?? null;
    const graph = new Map(
      table.map((f) => {
        const types = typeOnly(f.rel);
        return [
          f.rel,
          f.imports
            .filter((i) => i.startsWith("src:") && !types.has(i))
            .map(resolve)
            .filter((r): r is string => !!r),
        ];
      }),
    );
    expect(stronglyConnected(graph).filter((component) => component.length > 1)).toEqual([]);
  });

  it("only src/http, the objects, the command client and the cron set a shard scope; routes and the domain never do", () => {
    const SETTERS = /\b(narrowShardScope|scopeToCompany|withShardScope)\s*\(/;
    const setting = table.filter((f) => SETTERS.test(source(f.rel))).map((f) => f.rel);
    expect(setting.length).toBeGreaterThan(2);
    expect(setting.filter((rel) => rel.startsWith("routes/") || rel.startsWith("domain/"))).toEqual([]);
    expect(setting.filter((rel) => !/^(http\/|db\/|company\/|scheduler\/|index\.ts)/.test(rel))).toEqual([]);
  });
});

/** Tarjan's strongly connected components of a directed graph. */
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components;
}

// The platform ceiling for `npm run bench`: the least a Worker with the same bindings can do for
// the same work — (a) one D1 read, (b) one serialised Durable Object command writing one D1 batch,
// and (c) the floor of a real mutation: one D1 read in the Worker (the caller and the entity it
// names), then (b).
// The bench drives it with the same client in the same run and prints each real operation's
// throughput as a ratio of these.
import { DurableObject } from "cloudflare:workers";

interface CeilingEnv {
  DB: D1Database;
  CEILING: DurableObjectNamespace<CeilingObject>;
}

export class CeilingObject extends DurableObject<CeilingEnv> {
  private tail: Promise<unknown> = Promise.resolve();

  /** One command at a time, one D1 batch each (what a company command costs at the least). */
  command(id: string): Promise<number> {
    const run = this.tail.then(async () => {
      const now = new Date().toISOString();
      await this.env.DB.batch([
        this.env.DB.prepare("INSERT INTO items (id, title, created_at) VALUES (?1, ?2, ?3)").bind(id, `item ${id}`, now),
        this.env.DB.prepare("UPDATE counters SET value = value + 1 WHERE name = 'items'"),
      ]);
      return 1;
    });
    this.tail = run.catch(() => undefined);
    return run;
  }
}

export default {
  async fetch(request: Request, env: CeilingEnv): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/setup") {
      await env.DB.batch([
        env.DB.prepare("CREATE TABLE IF NOT EXISTS items (id TEXT PRIMARY KEY, title TEXT NOT NULL, created_at TEXT NOT NULL)"),
        env.DB.prepare("CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)"),
        env.DB.prepare("INSERT OR IGNORE INTO counters (name, value) VALUES ('items', 0)"),
        env.DB.prepare("INSERT OR IGNORE INTO items (id, title, created_at) VALUES ('seed', 'seed', '')"),
      ]);
      return Response.json({ ok: true });
    }
    if (url.pathname === "/read") {
      const row = await env.DB.prepare("SELECT id, title, created_at FROM items WHERE id = ?1")
        .bind(url.searchParams.get("id") ?? "seed")
        .first();
      return Response.json(row);
    }
    if (url.pathname === "/mutate" && request.method === "POST") {
      const found = await env.DB.prepare("SELECT id, title, created_at FROM items WHERE id = ?1").bind("seed").first();
      if (!found) return new Response("no seed", { status: 500 });
      const stub = env.CEILING.getByName(url.searchParams.get("co") ?? "one");
      return Response.json({ written: await stub.command(crypto.randomUUID()) }, { status: 201 });
    }
    if (url.pathname === "/write" && request.method === "POST") {
      const stub = env.CEILING.getByName(url.searchParams.get("co") ?? "one");
      return Response.json({ written: await stub.command(crypto.randomUUID()) }, { status: 201 });
    }
    return new Response("not found", { status: 404 });
  },
};

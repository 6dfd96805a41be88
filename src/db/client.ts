// The drizzle client over the D1 binding, built once per binding per isolate (building the
// relational schema config is a measurable share of a request's CPU).
import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";
import { sessionRouted } from "./sessions";

const clients = new WeakMap<D1Database | D1DatabaseSession, ReturnType<typeof build>>();
// A binding's statements follow the request's D1 session (src/db/sessions.ts).
const build = (d1: D1Database | D1DatabaseSession) => drizzle("withSession" in d1 ? sessionRouted(d1) : (d1 as unknown as D1Database), { schema });

export function createDb(d1: D1Database | D1DatabaseSession) {
  let db = clients.get(d1);
  if (!db) clients.set(d1, (db = build(d1)));
  return db;
}
export type Db = ReturnType<typeof createDb>;
export { schema };

// The drizzle client over the D1 binding, built once per binding per isolate (building the
// relational schema config is a measurable share of a request's CPU).
import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

const clients = new WeakMap<D1Database | D1DatabaseSession, ReturnType<typeof build>>();
const build = (d1: D1Database | D1DatabaseSession) => drizzle(d1 as D1Database, { schema });

export function createDb(d1: D1Database | D1DatabaseSession) {
  let db = clients.get(d1);
  if (!db) clients.set(d1, (db = build(d1)));
  return db;
}
export type Db = ReturnType<typeof createDb>;
export { schema };

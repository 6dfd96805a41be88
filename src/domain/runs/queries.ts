// Heartbeat run reads: one run, a company's runs newest first (keyset pages), a run's events.
import { and, asc, desc, eq, gt, lt, or, type SQL } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { badRequest } from "../errors";
import { base64url } from "../../crypto/random";
import { runView } from "./view";
import type { RunStatus } from "./lifecycle";

const r = schema.heartbeatRuns;

export const findRunRow = async (db: Db, runId: string) => (await db.select().from(r).where(eq(r.id, runId)))[0];

export interface RunListFilters {
  agentId?: string;
  issueId?: string;
  status?: RunStatus;
  limit?: number;
  cursor?: string;
}

const encodeCursor = (createdAt: string, id: string) => base64url(new TextEncoder().encode(JSON.stringify([createdAt, id])));
function decodeCursor(cursor: string): [string, string] {
  try {
    const text = new TextDecoder().decode(Uint8Array.from(atob(cursor.replace(/-/g, "+").replace(/_/g, "/")), (ch) => ch.charCodeAt(0)));
    const value = JSON.parse(text);
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "string")) return value as [string, string];
  } catch {
    /* fall through */
  }
  throw badRequest("Invalid cursor");
}

/** Newest first by (createdAt, id); `nextCursor` continues after the last run of the page. */
export async function listRuns(db: Db, companyId: string, f: RunListFilters) {
  const limit = Math.min(f.limit ?? 50, 200);
  const conditions: Array<SQL | undefined> = [eq(r.companyId, companyId)];
  if (f.agentId) conditions.push(eq(r.agentId, f.agentId));
  if (f.issueId) conditions.push(eq(r.issueId, f.issueId));
  if (f.status) conditions.push(eq(r.status, f.status));
  if (f.cursor) {
    const [createdAt, id] = decodeCursor(f.cursor);
    conditions.push(or(lt(r.createdAt, createdAt), and(eq(r.createdAt, createdAt), lt(r.id, id))));
  }
  const rows = await db
    .select()
    .from(r)
    .where(and(...conditions))
    .orderBy(desc(r.createdAt), desc(r.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { runs: page.map(runView), nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null };
}

export async function listRunEvents(db: Db, runId: string, afterSeq = 0, limit = 200) {
  const e = schema.heartbeatRunEvents;
  const rows = await db
    .select({ seq: e.seq, kind: e.kind, message: e.message, data: e.data, createdAt: e.createdAt })
    .from(e)
    .where(and(eq(e.runId, runId), gt(e.seq, afterSeq)))
    .orderBy(asc(e.seq))
    .limit(Math.min(limit, 1000));
  return rows.map((row) => ({ ...row, data: row.data ?? null }));
}

// The companies of issues this isolate has seen (src/http: a request's scope is decided here). An
// issue never changes company and ids are never reused, so a board caller's request on an issue
// seen before knows its company's database before any read.
import { type AuthedActor, canAccessCompany } from "./access";
import { cachedPlacement } from "../db/placement";
import { currentShardScope, narrowShardScope } from "../db/shards";

export const LOWERCASE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What is remembered of an issue. */
export interface SeenIssue {
  id: string;
  companyId: string;
}

/**
 * Issue id → company, for this isolate: an issue never changes company and ids are never reused,
 * so a request on an issue seen before knows its company database before any read (a deleted
 * issue's guard then finds no row: 404, as always). Bounded.
 */
const issueCompanies = new Map<string, string>();

export function rememberIssue<T extends SeenIssue>(issue: T): T {
  if (issueCompanies.size >= 10_000) issueCompanies.delete(issueCompanies.keys().next().value as string);
  issueCompanies.set(issue.id, issue.companyId);
  return issue;
}

/**
 * A board caller's entity route names no company: when the issue was seen before, its company's
 * database (cached placement) is known, and the guard and loader can share one round trip there
 * instead of looking the issue up on every candidate shard first. Only for a company the caller
 * may reach; anything else keeps the ordinary path (and its 404).
 */
export function scopeToSeenIssue(actor: AuthedActor, ref: string) {
  if (!LOWERCASE_UUID.test(ref) || currentShardScope()?.shard) return;
  const companyId = issueCompanies.get(ref);
  if (!companyId || !canAccessCompany(actor, companyId)) return;
  const placement = cachedPlacement(companyId);
  if (placement) narrowShardScope(companyId, placement.shard);
}

// Names for the ids the API returns, for human-readable output (`--json` keeps the raw ids): one
// list call per kind, made only for a table or line that shows such an id.
import { unwrap, type CliContext } from "./context";

/** An id's name, the id itself when unknown (e.g. no longer listed), "" for none. */
export type NameOf = (id: string | null | undefined) => string;

export function nameLookup(entries: Iterable<readonly [string, string]>): NameOf {
  const names = new Map(entries);
  return (id) => (id ? (names.get(id) ?? id) : "");
}

const needed = (ctx: CliContext, ids: Array<string | null | undefined>) => !ctx.out.json && ids.some(Boolean);

export async function agentNames(ctx: CliContext, ids: Array<string | null | undefined>): Promise<NameOf> {
  if (!needed(ctx, ids)) return nameLookup([]);
  const agents = await unwrap(ctx.api.GET("/api/companies/{companyId}/agents", { params: { path: { companyId: ctx.companyId() } } }));
  return nameLookup(agents.map((agent) => [agent.id, agent.name] as const));
}

export async function companyNames(ctx: CliContext, ids: Array<string | null | undefined>): Promise<NameOf> {
  if (!needed(ctx, ids)) return nameLookup([]);
  const companies = await unwrap(ctx.api.GET("/api/companies"));
  return nameLookup(companies.map((company) => [company.id, company.name] as const));
}

/** Issue ids as identifiers (ABC-12), from the company's newest 500 issues. */
export async function issueIdentifiers(ctx: CliContext, ids: Array<string | null | undefined>): Promise<NameOf> {
  if (!needed(ctx, ids)) return nameLookup([]);
  const issues = await unwrap(
    ctx.api.GET("/api/companies/{companyId}/issues", {
      params: { path: { companyId: ctx.companyId() }, query: { limit: "500", includeRoutineExecutions: "true" } },
    }),
  );
  return nameLookup(issues.map((issue) => [issue.id, issue.identifier] as const));
}

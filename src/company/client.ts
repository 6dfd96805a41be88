// Worker-side entry to a company's Durable Object: typed command calls.
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { HttpError } from "../domain/errors";
import type { Actor } from "../domain/actor";
import type { CommandResult } from "./command";
import type { CompanyCommandName, CompanyCommands } from "./commands";

type InputOf<K extends CompanyCommandName> = Parameters<CompanyCommands[K]>[2];
type OutputOf<K extends CompanyCommandName> = Awaited<ReturnType<CompanyCommands[K]>>;

export const companyObject = (env: Env, companyId: string) => env.COMPANY.getByName(companyId);

/** Runs a command in the company's DO; failures become HttpErrors with their status and details. */
export async function runCompanyCommand<K extends CompanyCommandName>(
  env: Env,
  companyId: string,
  name: K,
  actor: Actor,
  input: InputOf<K>,
): Promise<OutputOf<K>> {
  const result = (await companyObject(env, companyId).execute(companyId, name, actor, input)) as CommandResult<OutputOf<K>>;
  if (!result.ok) throw new HttpError(result.status as ContentfulStatusCode, result.error, result.details);
  return result.value;
}

// Worker-side entry to a company's Durable Object: typed command calls.
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { HttpError } from "../domain/errors";
import type { Actor } from "../domain/actor";
import type { CommandResult, CompanyCommand } from "./command";

export const companyObject = (env: Env, companyId: string) => env.COMPANY.getByName(companyId);

/** Runs a command in the company's DO; failures become HttpErrors with their status and details. */
export async function runCompanyCommand<I, O>(env: Env, companyId: string, command: CompanyCommand<I, O>, actor: Actor, input: I): Promise<O> {
  const result = (await companyObject(env, companyId).execute(companyId, command.name, actor, input)) as CommandResult<O>;
  if (!result.ok) throw new HttpError(result.status as ContentfulStatusCode, result.error, result.details);
  return result.value;
}

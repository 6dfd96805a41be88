// What every command needs: the typed client for the configured service and key, the company it
// works in, and the printer. Options beat environment variables, which beat the saved config.
import type { Command } from "commander";
import { createClient, errorMessage, type ApiClient } from "../client";
import { loadConfig, type CliConfig } from "./config";
import { CliError, printer, type Printer } from "./output";

export interface GlobalOptions {
  url?: string;
  token?: string;
  company?: string;
  json?: boolean;
}

export interface CliContext {
  url: string;
  token: string | undefined;
  config: CliConfig;
  api: ApiClient;
  out: Printer;
  /** The company to work in (--company, ACP_COMPANY, or `company use`). */
  companyId(): string;
}

export function cliContext(command: Command): CliContext {
  const options = command.optsWithGlobals<GlobalOptions>();
  const config = loadConfig();
  const url = (options.url || config.url || "").replace(/\/+$/, "");
  if (!url) throw new CliError("No service URL: pass --url, set ACP_URL, or run `acp login --url <api>`");
  // The saved key goes only to the service it was issued by (never to another --url).
  const savedUrl = (config.url ?? "").replace(/\/+$/, "");
  const token = options.token || (savedUrl === url ? config.token : undefined) || undefined;
  return {
    url,
    token,
    config,
    api: createClient({ baseUrl: url, token }),
    out: printer(Boolean(options.json)),
    companyId() {
      const id = options.company || config.companyId;
      if (!id) throw new CliError("No company selected: pass --company, set ACP_COMPANY, or run `acp company use <id>`");
      return id;
    },
  };
}

/** The data of an openapi-fetch result, or a CliError with the API's `error` message. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (err) {
    throw new CliError(`Could not reach the service: ${(err as Error).message}`);
  }
  if (result.error !== undefined || !result.response.ok)
    throw new CliError(`${errorMessage(result.error, result.response.status)} (HTTP ${result.response.status})`);
  return result.data as T;
}

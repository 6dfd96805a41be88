// The typed client of this API: openapi-fetch over the types openapi-typescript generated from
// /api/openapi.json (src/client/generated/schema.d.ts, `npm run client:generate`). Paths, parameters,
// bodies and responses are all checked by TypeScript:
//
//   const api = createClient({ baseUrl: "https://control.example.com", token: process.env.ACP_TOKEN });
//   const { data, error } = await api.POST("/api/companies/{companyId}/issues", { params: { path: { companyId } }, body: { title: "Ship it" } });
import createFetchClient, { type Client, type Middleware } from "openapi-fetch";
import type { paths } from "./generated/schema.js";

export type { paths, components, operations } from "./generated/schema.js";
export type ApiClient = Client<paths>;

export interface ClientOptions {
  /** The service origin, e.g. `http://127.0.0.1:8787` (paths start with /api). */
  baseUrl: string;
  /** A board API key, an agent API key or a run JWT. */
  token?: string;
  /** Sent as X-Service-Run-Id (agent keys acting inside a run). */
  runId?: string;
  fetch?: typeof globalThis.fetch;
}

export function createClient(options: ClientOptions): ApiClient {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.runId) headers["x-service-run-id"] = options.runId;
  return createFetchClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ""), headers, ...(options.fetch ? { fetch: options.fetch } : {}) });
}

/** The API's `{ error }` message from an openapi-fetch error value (or a fallback). */
export function errorMessage(error: unknown, status?: number): string {
  if (error && typeof error === "object" && typeof (error as { error?: unknown }).error === "string") return (error as { error: string }).error;
  return status ? `HTTP ${status}` : "Request failed";
}

export type { Middleware };

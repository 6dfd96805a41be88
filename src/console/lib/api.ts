// The console's one way to the API: the generated typed client on this origin. The browser sends
// the session cookie by itself (authenticated mode); in local_trusted mode no credentials are
// needed (the implicit local board). `call` turns an openapi-fetch result into its data or an
// ApiError carrying the API's `error` message, which every page shows as it is, and its `details`
// (which name the refused fields: lib/field-errors.ts).
import { type components, createClient, errorMessage } from "../../client";

export type Schemas = components["schemas"];
export const api = createClient({ baseUrl: location.origin });

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The API's `details`: zod issues (`[{ path, message }]`) or an object naming the fields. */
    readonly details?: unknown,
  ) {
    super(message);
  }
}

type Result<T> = { data?: T; error?: unknown; response: Response };

const unauthorizedListeners = new Set<() => void>();
/** Called whenever the API answers 401 (the session ended): the app sends the user to sign in. */
export function onUnauthorized(listener: () => void) {
  unauthorizedListeners.add(listener);
}

export async function call<T>(request: Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await request;
  } catch (err) {
    throw new ApiError(`The service could not be reached (${(err as Error).message})`, 0);
  }
  const { data, error, response } = result;
  if (error !== undefined || !response.ok) {
    if (response.status === 401) for (const listener of unauthorizedListeners) listener();
    throw new ApiError(errorMessage(error, response.status), response.status, (error as { details?: unknown } | undefined)?.details);
  }
  return data as T;
}

/** The message to show for anything thrown by `call` (or elsewhere). */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The multipart body of the upload routes (one `file` part). openapi-fetch passes FormData through
 * as it is, so the browser sets the boundary; the typed `body` only satisfies the route's schema.
 */
export function filePart(file: File) {
  const form = new FormData();
  form.append("file", file);
  return { body: { file: file.name }, bodySerializer: () => form };
}

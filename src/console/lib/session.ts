// Who is using the console: the deployment mode (from /api/health) and the board session. In
// local_trusted mode the service reports the implicit local board as the session, so the console
// opens at once; in authenticated mode a missing session sends the user to /sign-in.
import { signal } from "@preact/signals";
import { api, call, type Schemas } from "./api";

export type Session = NonNullable<Schemas["Session"]>;
export type DeploymentMode = Schemas["Health"]["deploymentMode"];

/** undefined while loading; null when signed out. */
export const session = signal<Session | null | undefined>(undefined);
export const deploymentMode = signal<DeploymentMode | undefined>(undefined);
/** Set when the service could not be asked who we are (shown instead of the app). */
export const bootError = signal<string | null>(null);

export async function loadSession() {
  try {
    const [health, current] = await Promise.all([call(api.GET("/api/health")).catch(() => null), call(api.GET("/api/auth/get-session"))]);
    if (health) deploymentMode.value = health.deploymentMode;
    session.value = current ?? null;
    bootError.value = null;
  } catch (err) {
    bootError.value = (err as Error).message;
  }
}

export const isLocalBoard = () => deploymentMode.value === "local_trusted";

export async function signIn(email: string, password: string) {
  await call(api.POST("/api/auth/sign-in/email", { body: { email, password } }));
  await loadSession();
}

export async function signUp(name: string, email: string, password: string) {
  await call(api.POST("/api/auth/sign-up/email", { body: { name, email, password } }));
  await loadSession();
}

export async function signOut() {
  // better-auth takes only a JSON body here ({}), which the OpenAPI document does not declare (so the
  // typed client does not offer one).
  await call(api.POST("/api/auth/sign-out", { body: {} as never }));
  session.value = null;
}

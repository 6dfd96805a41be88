// Hono environment of the Worker: bindings plus what middleware attaches.
import type { Actor } from "./domain/actor";
import type { DeploymentConfig } from "./config";

export type AppEnv = {
  Bindings: Env;
  Variables: { actor: Actor; config: DeploymentConfig };
};

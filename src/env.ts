// Hono environment of the Worker: bindings plus what middleware attaches.
import type { Actor } from "./domain/actor";
import type { DeploymentConfig } from "./config";

export type AppEnv = {
  Bindings: Env;
  Variables: { actor: Actor; config: DeploymentConfig };
};

/**
 * Optional variables: not in wrangler.toml's [vars] (so `wrangler types` does not list them), set in
 * `.dev.vars`, the dashboard or the test configuration when wanted. Declared here once so code reads
 * them typed (`env.RUN_LEASE_SECONDS`) instead of casting the environment.
 */
declare global {
  interface Env {
    /** API origin handed to agents as `apiUrl` when AUTH_PUBLIC_BASE_URL is not set. */
    API_PUBLIC_URL?: string;
    /** Delay (ms) before a dispatch the service asks for itself (tests: far ahead, fired by hand). */
    DISPATCH_DELAY_MS?: string;
    /** How long a disconnected runner's runs wait for it (ms). */
    RUNNER_GRACE_MS?: string;
    /** How long a runner has to acknowledge run.start (ms). */
    RUNNER_ACK_MS?: string;
    /** Run lease (s) before an idle run's locks may be adopted. */
    RUN_LEASE_SECONDS?: string;
    /** Days finished runs and settled wake-ups are kept. */
    RUN_RETENTION_DAYS?: string;
    /** Default provider for new secrets. */
    SECRETS_DEFAULT_PROVIDER?: string;
    /** GitHub API / raw-content origins for skill imports (tests serve a fake repository). */
    GITHUB_API_URL?: string;
    GITHUB_RAW_URL?: string;
    /** "1" only in the test configuration: fault injection (src/db/faults.ts). */
    TEST_FAULTS?: string;
  }
}

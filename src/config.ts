// Deployment configuration from [vars]: mode, exposure and the auth base URL rules.
export type DeploymentMode = "local_trusted" | "authenticated";
export type Exposure = "private" | "public";

export interface DeploymentConfig {
  mode: DeploymentMode;
  exposure: Exposure;
  baseUrlMode: "auto" | "explicit";
  publicBaseUrl: string | null;
}

export type ConfigResult = { ok: true; config: DeploymentConfig } | { ok: false; problem: string };

type ConfigVars = Pick<Env, "DEPLOYMENT_MODE" | "SERVER_EXPOSURE" | "AUTH_BASE_URL_MODE" | "AUTH_PUBLIC_BASE_URL">;

export function readDeploymentConfig(env: ConfigVars): ConfigResult {
  const mode = env.DEPLOYMENT_MODE ?? "local_trusted";
  const exposure = env.SERVER_EXPOSURE ?? "private";
  const baseUrlMode = env.AUTH_BASE_URL_MODE || "auto";
  const publicBaseUrl = env.AUTH_PUBLIC_BASE_URL?.trim() || null;
  if (mode !== "local_trusted" && mode !== "authenticated") {
    return { ok: false, problem: `DEPLOYMENT_MODE must be "local_trusted" or "authenticated", got "${mode}"` };
  }
  if (exposure !== "private" && exposure !== "public") {
    return { ok: false, problem: `SERVER_EXPOSURE must be "private" or "public", got "${exposure}"` };
  }
  if (baseUrlMode !== "auto" && baseUrlMode !== "explicit") {
    return { ok: false, problem: `AUTH_BASE_URL_MODE must be "auto" or "explicit", got "${baseUrlMode}"` };
  }
  if (mode === "local_trusted" && exposure === "public") {
    return {
      ok: false,
      problem:
        "Refusing to serve: DEPLOYMENT_MODE local_trusted trusts every caller and is only valid with SERVER_EXPOSURE private. Use authenticated mode for public exposure.",
    };
  }
  if (exposure === "public" && (baseUrlMode !== "explicit" || !publicBaseUrl)) {
    return {
      ok: false,
      problem: "Refusing to serve: public exposure requires AUTH_BASE_URL_MODE explicit and AUTH_PUBLIC_BASE_URL set.",
    };
  }
  return { ok: true, config: { mode, exposure, baseUrlMode, publicBaseUrl } };
}

/** The API origin agents and links call back: the configured public URL, else the local dev server. */
export const serviceApiUrl = (env: Pick<Env, "AUTH_PUBLIC_BASE_URL" | "API_PUBLIC_URL">) =>
  (env.AUTH_PUBLIC_BASE_URL?.trim() || env.API_PUBLIC_URL?.trim() || "http://127.0.0.1:8787").replace(/\/+$/, "");

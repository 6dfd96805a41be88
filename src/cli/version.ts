// The CLI's version: the root package.json's, written in by the build (src/cli/build.mjs, esbuild `define`).
declare const ACP_VERSION: string | undefined;

export const cliVersion = typeof ACP_VERSION === "string" ? ACP_VERSION : "0.0.0-dev";

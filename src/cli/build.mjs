// Builds the CLI to one CommonJS file with a shebang (dist/cli.cjs, the package's `acp` bin):
// Node does not strip TypeScript types inside node_modules, so an installed package needs JavaScript.
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export async function buildCli() {
  // The typed client for other projects (`import { createClient } from "agent-control-plane/client"`).
  await build({
    entryPoints: [path.join(root, "src/client/index.ts")],
    outfile: path.join(root, "dist/client.js"),
    bundle: true,
    platform: "neutral",
    format: "esm",
    target: "es2022",
    external: ["openapi-fetch"],
    logLevel: "warning",
  });
  return build({
    entryPoints: [path.join(root, "src/cli/index.ts")],
    outfile: path.join(root, "dist/cli.cjs"),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    banner: { js: "#!/usr/bin/env node" },
    logLevel: "warning",
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli();

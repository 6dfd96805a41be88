#!/usr/bin/env node
// `npm run migrate -- --local | --remote [--env production] [--persist-to DIR]`: applies the D1
// migrations to the directory (`DB`) and to every company shard (`DB_SHARD_<n>`) named in
// wrangler.toml for that environment — they all share migrations/ (src/db/shards.ts).
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
if (!args.includes("--local") && !args.includes("--remote")) {
  console.error("usage: npm run migrate -- --local | --remote [--env <name>] [--persist-to <dir>]");
  process.exit(2);
}
const envIndex = args.indexOf("--env");
const envName = envIndex >= 0 ? args[envIndex + 1] : null;

/** The D1 binding names of the top level or of `[env.<name>]`, in file order. */
function d1Bindings(toml, env) {
  const header = env ? `[[env.${env}.d1_databases]]` : "[[d1_databases]]";
  const names = [];
  const lines = toml.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== header) continue;
    for (let j = i + 1; j < lines.length && !lines[j].trim().startsWith("["); j++) {
      const m = /^binding\s*=\s*"([^"]+)"/.exec(lines[j].trim());
      if (m) names.push(m[1]);
    }
  }
  return names;
}

const bindings = d1Bindings(readFileSync(path.join(root, "wrangler.toml"), "utf8"), envName);
if (!bindings.length) {
  console.error(`no d1_databases in wrangler.toml${envName ? ` for env ${envName}` : ""}`);
  process.exit(1);
}
const wrangler = path.join(root, "node_modules", ".bin", "wrangler");
for (const binding of bindings) {
  console.log(`migrating ${binding}`);
  const result = spawnSync(wrangler, ["d1", "migrations", "apply", binding, ...args], { cwd: root, stdio: "inherit", env: { ...process.env, CI: "true" } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

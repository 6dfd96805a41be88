// Builds the CLI as a publishable package of its own in dist/cli/ (package.json, README.md, the
// third-party notices and acp.cjs: one minified CommonJS file with a shebang, every dependency
// inlined, so installing it fetches nothing), plus dist/cli.cjs, the same bundle as this package's
// own `acp` bin. Node does not strip TypeScript types inside node_modules, so installs need JavaScript.
import { build } from "esbuild";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const cliPackageDir = path.join(root, "dist/cli");
export const cliPackageName = "@agent-control-plane/cli";

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
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  rmSync(cliPackageDir, { recursive: true, force: true });
  mkdirSync(cliPackageDir, { recursive: true });
  const bundle = path.join(cliPackageDir, "acp.cjs");
  const result = await build({
    entryPoints: [path.join(root, "src/cli/index.ts")],
    outfile: bundle,
    bundle: true,
    minify: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    define: { ACP_VERSION: JSON.stringify(version) },
    banner: { js: "#!/usr/bin/env node" },
    metafile: true,
    logLevel: "warning",
  });
  chmodSync(bundle, 0o755);
  copyFileSync(bundle, path.join(root, "dist/cli.cjs"));
  chmodSync(path.join(root, "dist/cli.cjs"), 0o755);
  writeFileSync(path.join(cliPackageDir, "package.json"), JSON.stringify(cliManifest(version), null, 2) + "\n");
  writeFileSync(path.join(cliPackageDir, "README.md"), cliReadme(version));
  writeFileSync(path.join(cliPackageDir, "THIRD-PARTY-NOTICES.md"), thirdPartyNotices(result.metafile));
  return result;
}

/** No dependencies of any kind: the bundle carries everything it runs. */
function cliManifest(version) {
  return {
    name: cliPackageName,
    version,
    description:
      "acp: the agent control plane from the terminal (sign in, companies, agents, issues, approvals, costs, routines, runs, skills, events, webhooks, local runners)",
    bin: { acp: "acp.cjs" },
    files: ["acp.cjs", "README.md", "THIRD-PARTY-NOTICES.md"],
    engines: { node: ">=20" },
  };
}

function cliReadme(version) {
  return `# ${cliPackageName} ${version}

\`acp\`, the command-line interface of the agent control plane: sign in with the device flow, work
with companies, agents, issues, approvals, costs, routines, runs and skills, export and import
company packages, follow the company's events (\`acp events tail\`), manage webhooks, and run local
agents (\`acp runner\`).

One self-contained file, no dependencies; Node.js 20 or later.

\`\`\`sh
npm install -g ${cliPackageName}      # or: npm install -g ./agent-control-plane-cli-${version}.tgz
acp login --url https://control.example.com
acp whoami
acp issue list
acp --help
\`\`\`

\`--json\` prints the API's JSON (raw ids) for scripts; otherwise tables with names. The sign-in is
saved (0600) in \`$ACP_CONFIG_DIR\`, else \`$XDG_CONFIG_HOME/acp\`, else \`~/.config/acp\`.
`;
}

/** The license texts of the packages inlined in the bundle (their licenses ask to keep them). */
function thirdPartyNotices(metafile) {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (!match) continue;
    const dir = path.join(root, input.slice(0, match.index + match[0].length));
    if (!packages.has(match[1])) packages.set(match[1], dir);
  }
  const sections = [...packages]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, dir]) => {
      const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
      const licenseFile = ["LICENSE", "LICENSE.md", "LICENSE.txt", "license"].map((f) => path.join(dir, f)).find((f) => existsSync(f));
      const text = licenseFile ? readFileSync(licenseFile, "utf8").trim() : `License: ${manifest.license ?? "see the package"}`;
      return `## ${name} ${manifest.version} (${manifest.license ?? "unknown"})\n\n${text}\n`;
    });
  return `# Third-party notices\n\nacp.cjs includes the following packages.\n\n${sections.join("\n")}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli();

// Builds the board console (src/console) into dist/console/, the Worker's static assets: index.html,
// hashed ES modules and CSS under assets/ (one chunk per page, loaded when first visited), _headers
// and the third-party notices; and what makes it installable, at the root: the web app manifest
// (manifest.webmanifest, served as application/manifest+json), its icon (icon.svg) and the service
// worker (sw.js, from src/console/sw.ts, bundled on its own: no page imports it). Run by `npm run
// build:console`, by wrangler's [build] (dev and deploy) and by `npm install` (prepare), so a fresh
// clone has the assets the Worker's config names.
// Files are written next to their final names and renamed into place, and only files of older builds
// are removed, so two dev servers building at once never see a half-written console.
import { build } from "esbuild";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const consoleDir = path.join(root, "dist/console");
const assetsDir = path.join(consoleDir, "assets");
/** The console as an installed app (linked from index.html). */
const THEME_COLOR = "#0a58ca";
const MANIFEST = {
  id: "/",
  name: "Agent Control Plane",
  short_name: "Control Plane",
  description: "The board console of your AI-agent companies: what waits on you, issues, agents, runs and costs.",
  start_url: "/",
  scope: "/",
  display: "standalone",
  background_color: "#ffffff",
  theme_color: THEME_COLOR,
  icons: [
    { src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
    { src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "maskable" },
  ],
};
/** The page the first-page weight counts (with the shell): where a board user lands. */
const LANDING_PAGE = "src/console/pages/dashboard.tsx";
const assetName = (file) => path.relative(assetsDir, file).split(path.sep).join("/");

// Same-origin only: the console's own modules and styles, images from the API (logos), data: for the favicon.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const HEADERS = `/*
  Content-Security-Policy: ${CSP}
  X-Content-Type-Options: nosniff
  Referrer-Policy: same-origin
/assets/*
  Cache-Control: public, max-age=31536000, immutable
/sw.js
  Cache-Control: no-cache
`;

/** Builds the console; returns the first page's files and their gzipped weight. */
export async function buildConsole() {
  const result = await build({
    entryPoints: { main: path.join(root, "src/console/main.tsx") },
    absWorkingDir: root,
    outdir: assetsDir,
    write: false,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: ["es2022", "chrome110", "firefox115", "safari16"],
    minify: true,
    jsx: "automatic",
    jsxImportSource: "preact",
    entryNames: "[name]-[hash]",
    chunkNames: "[name]-[hash]",
    assetNames: "[name]-[hash]",
    define: { "process.env.NODE_ENV": '"production"' },
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
  });
  // The service worker: one script at the root (its scope is the whole console), not a hashed chunk.
  const worker = await build({
    entryPoints: [path.join(root, "src/console/sw.ts")],
    absWorkingDir: root,
    write: false,
    bundle: true,
    format: "iife",
    platform: "browser",
    target: ["es2022", "chrome110", "firefox115", "safari16"],
    minify: true,
    legalComments: "none",
    logLevel: "warning",
  });
  const outputs = result.outputFiles.map((file) => ({ name: assetName(file.path), contents: file.contents }));
  const metaOutputs = Object.entries(result.metafile.outputs).map(([file, output]) => ({ name: assetName(path.join(root, file)), ...output }));
  const entry = metaOutputs.find((o) => o.entryPoint === "src/console/main.tsx");
  const landing = metaOutputs.find((o) => o.entryPoint === LANDING_PAGE);
  /** A module and everything it imports statically (what loads with it). */
  const closure = (name, seen = new Set()) => {
    if (seen.has(name)) return seen;
    seen.add(name);
    const output = metaOutputs.find((o) => o.name === name);
    for (const i of output.imports) if (i.kind === "import-statement") closure(assetName(path.join(root, i.path)), seen);
    return seen;
  };
  const entryCss = entry.cssBundle ? assetName(path.join(root, entry.cssBundle)) : null;
  // The entry's static imports load with it: preload them so they do not wait for the entry to parse.
  const preloads = [...closure(entry.name)].filter((name) => name !== entry.name);
  const html = indexHtml(entry.name, entryCss, preloads);

  mkdirSync(assetsDir, { recursive: true });
  for (const output of outputs) writeAtomically(path.join(assetsDir, output.name), output.contents);
  writeAtomically(path.join(assetsDir, "THIRD-PARTY-NOTICES.txt"), thirdPartyNotices(result.metafile));
  writeAtomically(path.join(consoleDir, "_headers"), HEADERS);
  writeAtomically(path.join(consoleDir, "index.html"), html);
  writeAtomically(path.join(consoleDir, "sw.js"), worker.outputFiles[0].contents);
  writeAtomically(path.join(consoleDir, "manifest.webmanifest"), `${JSON.stringify(MANIFEST, null, 2)}\n`);
  writeAtomically(path.join(consoleDir, "icon.svg"), readFileSync(path.join(root, "src/console/icon.svg")));
  const current = new Set([...outputs.map((o) => o.name), "THIRD-PARTY-NOTICES.txt"]);
  for (const name of readdirSync(assetsDir)) if (!current.has(name) && !name.includes(".tmp-")) rmSync(path.join(assetsDir, name), { force: true });

  // The first page a board user sees: the shell, its styles and the dashboard's chunk.
  const firstPageAssets = new Set([...closure(entry.name), ...closure(landing.name), ...(entryCss ? [entryCss] : [])]);
  const firstPage = [["index.html", html], ...[...firstPageAssets].map((name) => [name, outputs.find((o) => o.name === name).contents])];
  const gzipBytes = firstPage.reduce((sum, [, contents]) => sum + gzipSync(contents, { level: 9 }).length, 0);
  return { files: firstPage.map(([name]) => name), gzipBytes, outputs: outputs.map((o) => o.name) };
}

function indexHtml(entryJs, entryCss, preloads) {
  // Only the shell's modules are preloaded; a page's chunk loads when its route renders.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Agent Control Plane</title>
<meta name="theme-color" content="${THEME_COLOR}">
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="manifest" href="/manifest.webmanifest">
${entryCss ? `<link rel="stylesheet" href="/assets/${entryCss}">\n` : ""}${preloads.map((p) => `<link rel="modulepreload" href="/assets/${p}">\n`).join("")}<script type="module" src="/assets/${entryJs}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The board console needs JavaScript. The API is at /api (reference: /api/docs).</noscript>
</body>
</html>
`;
}

function writeAtomically(file, contents) {
  const temporary = `${file}.tmp-${process.pid}`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

/** The license texts of the packages inlined in the bundle (their licenses ask to keep them). */
function thirdPartyNotices(metafile) {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match && !packages.has(match[1])) packages.set(match[1], path.join(root, input.slice(0, match.index + match[0].length)));
  }
  const sections = [...packages]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, dir]) => {
      const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
      const licenseFile = ["LICENSE", "LICENSE.md", "LICENSE.txt", "license"].map((f) => path.join(dir, f)).find((f) => existsSync(f));
      const text = licenseFile ? readFileSync(licenseFile, "utf8").trim() : `License: ${manifest.license ?? "see the package"}`;
      return `== ${name} ${manifest.version} (${manifest.license ?? "unknown"})\n\n${text}\n`;
    });
  return `Third-party notices: the board console's scripts include the following packages.\n\n${sections.join("\n")}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { gzipBytes, files } = await buildConsole();
  console.log(`console built in dist/console: first page ${(gzipBytes / 1024).toFixed(1)} KiB gzipped (${files.length} files)`);
}

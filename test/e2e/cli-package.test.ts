// The standalone CLI package (dist/cli/, written by `npm run build:cli`): packed with `npm pack`,
// installed globally into a temporary prefix offline (it has no dependencies to fetch), and run
// from there, far from this repository's node_modules.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript build module
import { buildCli, cliPackageDir, cliPackageName } from "../../src/cli/build.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const work = mkdtempSync(path.join(tmpdir(), "acp-package-"));
const rootVersion: string = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version;

function run(file: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // npm's own configuration may not point at a registry: nothing here may need one.
    const env = { ...process.env, npm_config_registry: "http://127.0.0.1:9/", npm_config_update_notifier: "false" };
    execFile(file, args, { cwd, env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("the standalone CLI package", () => {
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("packs without dependencies, installs offline into a prefix, and its acp prints the version and the commands", async () => {
    await buildCli();
    const manifest = JSON.parse(readFileSync(path.join(cliPackageDir, "package.json"), "utf8"));
    expect(manifest).toMatchObject({ name: cliPackageName, version: rootVersion, bin: { acp: "acp.cjs" }, engines: { node: ">=20" } });
    for (const field of ["dependencies", "optionalDependencies", "peerDependencies", "bundleDependencies"]) expect(manifest[field]).toBeUndefined();
    const bundle = path.join(cliPackageDir, "acp.cjs");
    expect(readFileSync(bundle, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect(statSync(bundle).mode & 0o111).toBe(0o111);

    const packed = await run("npm", ["pack", cliPackageDir, "--json", "--pack-destination", work], work);
    expect(packed.code, packed.stderr).toBe(0);
    const [tarball] = JSON.parse(packed.stdout);
    expect(tarball.files.map((f: { path: string }) => f.path).sort()).toEqual(["README.md", "THIRD-PARTY-NOTICES.md", "acp.cjs", "package.json"]);
    expect(tarball.bundled).toEqual([]);
    // Small: the whole CLI with commander, ws and the typed client inlined (about 40 KiB today).
    expect(tarball.size).toBeLessThan(100 * 1024);

    const prefix = path.join(work, "prefix");
    const installed = await run("npm", ["install", "-g", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", path.join(work, tarball.filename)], work);
    expect(installed.code, installed.stderr).toBe(0);
    const installedDir = path.join(prefix, "lib/node_modules", cliPackageName);
    expect(existsSync(path.join(installedDir, "acp.cjs"))).toBe(true);
    expect(existsSync(path.join(installedDir, "node_modules"))).toBe(false);

    const acp = path.join(prefix, "bin/acp");
    const version = await run(acp, ["--version"], work);
    expect(version).toMatchObject({ code: 0, stdout: `${rootVersion}\n` });
    const help = await run(acp, ["--help"], work);
    expect(help.code).toBe(0);
    const commands = [...help.stdout.split("Commands:")[1].matchAll(/^ {2}([a-z-]+)/gm)].map((m) => m[1]);
    expect(commands).toEqual(
      expect.arrayContaining([
        "login",
        "approve-login",
        "logout",
        "whoami",
        "company",
        "agent",
        "issue",
        "approval",
        "cost",
        "routine",
        "run",
        "skill",
        "export",
        "import",
        "events",
        "webhooks",
        "plugin",
        "runner",
      ]),
    );
  });
});

// Skills (list, import a local folder) and company packages (export, import).
import type { Command } from "commander";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { cliContext, unwrap } from "../context";
import { CliError } from "../output";

const MAX_FILES = 1000;
const SKIPPED = new Set([".git", "node_modules", ".DS_Store"]);

/** The folder's files as the import route's upload form (text as utf8, anything else base64). */
export function folderFiles(root: string): Array<{ path: string; content: string; encoding: "utf8" | "base64" }> {
  const files: Array<{ path: string; content: string; encoding: "utf8" | "base64" }> = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (SKIPPED.has(name)) continue;
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        if (files.length >= MAX_FILES) throw new CliError(`More than ${MAX_FILES} files under ${root}`);
        const bytes = readFileSync(full);
        const text = bytes.toString("utf8");
        const isText = !text.includes("\uFFFD") && !bytes.includes(0);
        files.push({
          path: path.relative(root, full).split(path.sep).join("/"),
          content: isText ? text : bytes.toString("base64"),
          encoding: isText ? "utf8" : "base64",
        });
      }
    }
  };
  walk(root);
  return files;
}

export function skillCommands(program: Command) {
  const skill = program.command("skill").description("The selected company's skill library");
  skill.command("list").action(async (_o: unknown, command: Command) => {
    const ctx = cliContext(command);
    const skills = await unwrap(ctx.api.GET("/api/companies/{companyId}/skills", { params: { path: { companyId: ctx.companyId() } } }));
    ctx.out.table(skills, [
      ["Key", "key"],
      ["Name", "name"],
      ["Trust", "trustLevel"],
      ["Source", "sourceType"],
    ]);
  });
  skill
    .command("import")
    .description("Upload a local skill folder (SKILL.md at its root, or one per sub-folder)")
    .argument("<path>")
    .option("--force", "replace installed skills changed locally")
    .action(async (folder: string, opts: { force?: boolean }, command: Command) => {
      const ctx = cliContext(command);
      const root = path.resolve(folder);
      let files;
      try {
        files = folderFiles(root);
      } catch (err) {
        throw err instanceof CliError ? err : new CliError(`Cannot read ${root}: ${(err as Error).message}`);
      }
      ctx.out.note(`uploading ${files.length} file(s) from ${root}…`);
      const result = await unwrap(
        ctx.api.POST("/api/companies/{companyId}/skills/import", {
          params: { path: { companyId: ctx.companyId() } },
          body: { files, rootPath: root, force: opts.force },
        }),
      );
      ctx.out.value(result, () => JSON.stringify(result, null, 2));
    });
}

export function portabilityCommands(program: Command) {
  program
    .command("export")
    .description("Export the selected company as a package (JSON)")
    .option("-o, --out <file>", "write the package here (default: stdout)")
    .option("--with-comments", "include comments")
    .option("--with-documents", "include issue documents")
    .action(async (opts: { out?: string; withComments?: boolean; withDocuments?: boolean }, command: Command) => {
      const ctx = cliContext(command);
      ctx.out.note("exporting…");
      const pkg = await unwrap(
        ctx.api.POST("/api/companies/{companyId}/export", {
          params: { path: { companyId: ctx.companyId() } },
          body: { include: { comments: opts.withComments, documents: opts.withDocuments } as never },
        }),
      );
      const text = JSON.stringify(pkg);
      if (opts.out) {
        writeFileSync(opts.out, text);
        ctx.out.note(`wrote ${Object.keys(pkg.files).length} files (${(text.length / 1024).toFixed(1)} KiB) to ${opts.out}`);
        if (ctx.out.json) ctx.out.value({ out: opts.out, files: Object.keys(pkg.files).length, bytes: text.length, warnings: pkg.warnings });
      } else process.stdout.write(text + "\n");
    });
  program
    .command("import")
    .description("Import a package (from acp export) into the selected company")
    .argument("<file>")
    .option("--preview", "only show what would happen")
    .option("--collision <strategy>", "skip or rename", "skip")
    .action(async (file: string, opts: { preview?: boolean; collision: string }, command: Command) => {
      const ctx = cliContext(command);
      let pkg: { rootPath?: string; files: Record<string, string> };
      try {
        pkg = JSON.parse(readFileSync(file, "utf8"));
      } catch (err) {
        throw new CliError(`Cannot read package ${file}: ${(err as Error).message}`);
      }
      const body = { source: { type: "inline" as const, rootPath: pkg.rootPath, files: pkg.files }, collisionStrategy: opts.collision as "skip" | "rename" };
      const companyId = ctx.companyId();
      ctx.out.note(`${opts.preview ? "previewing" : "importing"} ${Object.keys(pkg.files ?? {}).length} files…`);
      const result = opts.preview
        ? await unwrap(ctx.api.POST("/api/companies/{companyId}/imports/preview", { params: { path: { companyId } }, body }))
        : await unwrap(ctx.api.POST("/api/companies/{companyId}/imports/apply", { params: { path: { companyId } }, body }));
      ctx.out.value(
        result,
        () =>
          `${opts.preview ? "would create" : "created"}: ${JSON.stringify(result.create)}; skipped: ${JSON.stringify(result.skip)}${result.warnings.length ? `\nwarnings:\n  ${result.warnings.join("\n  ")}` : ""}`,
      );
    });
}

// Skills: skills/<key>/<path>, the text files of the company's own (non-bundled) skills; a skill is
// the folder holding a SKILL.md. Imported as managed skills; an existing key is kept.
import { and, eq, ne } from "drizzle-orm";
import { schema } from "../../../db/client";
import { inIds } from "../../../db/id-list";
import { unprocessable } from "../../errors";
import { installPackage } from "../../skills/library";
import { buildSkillPackage, textOf, utf8 } from "../../skills/package";
import { readMarkdown, type PackageFiles } from "../format";
import { defineKind } from "./kind";

export interface PkgSkill {
  key: string;
  files: PackageFiles;
}

/** A skill's name from its SKILL.md frontmatter, else its key. */
export function skillName(skill: PkgSkill): string {
  try {
    const name = readMarkdown("SKILL.md", skill.files["SKILL.md"] ?? "").fields.name;
    return typeof name === "string" && name.trim() ? name.trim() : skill.key;
  } catch {
    return skill.key;
  }
}

export const skills = defineKind<PkgSkill[]>({
  key: "skills",
  noun: "skill",
  exportPart({ db, companyId, batch }) {
    const rows = batch.add(
      db
        .select()
        .from(schema.companySkills)
        .where(and(eq(schema.companySkills.companyId, companyId), ne(schema.companySkills.sourceType, "bundled"))),
    );
    const files = batch.add(db.select().from(schema.companySkillFiles).where(eq(schema.companySkillFiles.companyId, companyId)));
    return {
      async write(ctx) {
        ctx.counts.skills = rows.value.length;
        for (const skill of rows.value) {
          for (const file of files.value.filter((f) => f.skillId === skill.id)) {
            if (ctx.countsOnly) continue;
            const object = await ctx.env.FILES.get(file.objectKey);
            const text = object ? textOf(new Uint8Array(await object.arrayBuffer())) : null;
            if (text === null) {
              ctx.warnings.push(`skills/${skill.key}/${file.path}: binary or missing file left out`);
              continue;
            }
            ctx.put(`skills/${skill.key}/${file.path}`, text);
          }
        }
      },
    };
  },
  parse(pkg) {
    // A skill is the folder holding a SKILL.md (its key is the folder path under skills/).
    const paths = Object.keys(pkg.files);
    const dirs = paths.filter((p) => p.startsWith("skills/") && p.endsWith("/SKILL.md")).map((p) => p.slice("skills/".length, -"/SKILL.md".length));
    const found = dirs.map((key) => ({
      key,
      files: Object.fromEntries(
        Object.entries(pkg.files)
          .filter(([p]) => p.startsWith(`skills/${key}/`))
          .map(([p, t]) => [p.slice(`skills/${key}/`.length), t]),
      ),
    }));
    const orphan = paths.find((p) => p.startsWith("skills/") && !dirs.some((d) => p.startsWith(`skills/${d}/`)));
    if (orphan) throw unprocessable(`${orphan}: not inside a skill folder (no SKILL.md)`, { path: orphan });
    return found;
  },
  async apply(ctx, items) {
    for (const skill of items.filter((s) => ctx.plan.create.skills.has(s.key))) {
      const built = await buildSkillPackage(Object.entries(skill.files).map(([path, text]) => ({ path, bytes: utf8(text) })));
      const installed = await installPackage(
        ctx.command,
        { pkg: built, key: skill.key, sourceType: "managed_local", sourceRef: null, sourceCommit: null, originHash: null },
        null,
      );
      ctx.statements.push(...installed.statements);
    }
  },
  undo: (ctx, plan) =>
    ctx.db.delete(schema.companySkills).where(and(eq(schema.companySkills.companyId, ctx.companyId), inIds(schema.companySkills.key, [...plan.create.skills]))),
});

// Skill library reads, for the routes and the commands alike: the library, one skill (404 when it
// is not the company's), its detail with its usage, the skills a run is given, and the workspaces
// a project scan searches.
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { inIds } from "../../db/id-list";
import { notFound } from "../errors";
import { storedDesiredSkills } from "../agents/skills";
import { skillView, type SkillFileRow, type SkillRow } from "./library";

const s = schema.companySkills;
const f = schema.companySkillFiles;

/** A library skill: its row and its files. */
export type LoadedSkill = { row: SkillRow; files: SkillFileRow[] };

/** The company's skills with their files (one round trip). */
export async function loadLibrary(db: Db, companyId: string): Promise<LoadedSkill[]> {
  const [rows, files] = await db.batch([db.select().from(s).where(eq(s.companyId, companyId)), db.select().from(f).where(eq(f.companyId, companyId))]);
  const bySkill = new Map<string, SkillFileRow[]>();
  for (const file of files) bySkill.set(file.skillId, [...(bySkill.get(file.skillId) ?? []), file]);
  return rows.map((row) => ({ row, files: bySkill.get(row.id) ?? [] }));
}

/** One skill of the company with its files; 404 when the company has no such skill. */
export async function requireSkill(db: Db, companyId: string, skillId: string): Promise<LoadedSkill> {
  const [rows, files] = await db.batch([
    db
      .select()
      .from(s)
      .where(and(eq(s.id, skillId), eq(s.companyId, companyId))),
    db
      .select()
      .from(f)
      .where(and(eq(f.skillId, skillId), eq(f.companyId, companyId))),
  ]);
  if (!rows[0]) throw notFound("Skill not found");
  return { row: rows[0], files };
}

/** The company's agents whose desiredSkills include `key` (the skill's usage). */
export async function agentsDesiringSkill(db: Db, companyId: string, key: string) {
  const agents = await db
    .select({ id: schema.agents.id, name: schema.agents.name, adapterConfig: schema.agents.adapterConfig })
    .from(schema.agents)
    .where(eq(schema.agents.companyId, companyId));
  return agents.filter((a) => storedDesiredSkills(a.adapterConfig).includes(key)).map((a) => ({ id: a.id, name: a.name }));
}

/** One skill as the API shows it, with its usage (the agents that desire it); 404 when it is not the company's. */
export async function skillDetail(db: Db, companyId: string, skillId: string) {
  const skill = await requireSkill(db, companyId, skillId);
  const usage = await agentsDesiringSkill(db, companyId, skill.row.key);
  return { ...skillView(skill.row, skill.files), usage: { agents: usage } };
}

/** The library skills with these keys and their files (what a run is given of them). */
export async function skillsWithKeys(db: Db, companyId: string, keys: string[]) {
  const rows = await db
    .select({ id: s.id, key: s.key, name: s.name, slug: s.slug, contentHash: s.contentHash })
    .from(s)
    .where(and(eq(s.companyId, companyId), inIds(s.key, keys)));
  const files = rows.length
    ? await db
        .select()
        .from(f)
        .where(
          and(
            eq(f.companyId, companyId),
            inIds(
              f.skillId,
              rows.map((r) => r.id),
            ),
          ),
        )
    : [];
  return { rows, files };
}

/** The company's project workspaces that name a repository (optionally only these projects or workspaces). */
export function repositoryWorkspaces(db: Db, companyId: string, filter: { projectIds?: string[]; workspaceIds?: string[] }) {
  const w = schema.projectWorkspaces;
  return db
    .select({ id: w.id, projectId: w.projectId, repoUrl: w.repoUrl, repoRef: w.repoRef })
    .from(w)
    .where(
      and(
        eq(w.companyId, companyId),
        isNotNull(w.repoUrl),
        filter.projectIds?.length ? inArray(w.projectId, filter.projectIds) : undefined,
        filter.workspaceIds?.length ? inArray(w.id, filter.workspaceIds) : undefined,
      ),
    );
}

// scan-projects: the repositories the company's project workspaces name (`repoUrl`, GitHub) are
// searched for skill folders; what is found is imported as `project_scan` skills. A workspace
// that cannot be read is a warning, never a failure of the whole scan.
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { HttpError } from "../errors";
import { resolveSkillSource, type UrlCheck } from "./sources";
import type { ImportedPackage } from "./commands";

export async function scanProjectSources(env: Env, db: Db, companyId: string, filter: { projectIds?: string[]; workspaceIds?: string[] }, checkUrl: UrlCheck) {
  const w = schema.projectWorkspaces;
  const workspaces = await db
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
  const packages: ImportedPackage[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const workspace of workspaces) {
    const repo = workspace.repoUrl!.replace(/\.git$/, "").replace(/\/+$/, "");
    const source = workspace.repoRef ? `${repo}/tree/${workspace.repoRef}` : repo;
    if (seen.has(source)) continue;
    seen.add(source);
    try {
      const resolved = await resolveSkillSource(env, source, checkUrl);
      packages.push(...resolved.packages.map((p) => ({ ...p, sourceType: "project_scan" as const })));
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      warnings.push(`Workspace ${workspace.id} (${workspace.repoUrl}): ${err.message}`);
    }
  }
  return { packages, warnings };
}

// scan-projects: the repositories the company's project workspaces name (`repoUrl`, GitHub) are
// searched for skill folders; what is found is imported as `project_scan` skills. A workspace
// that cannot be read is a warning, never a failure of the whole scan.
import type { Db } from "../../db/client";
import { HttpError } from "../errors";
import { resolveSkillSource, type UrlCheck } from "./sources";
import type { ImportedPackage } from "./commands";
import { repositoryWorkspaces } from "./queries";

export async function scanProjectSources(env: Env, db: Db, companyId: string, filter: { projectIds?: string[]; workspaceIds?: string[] }, checkUrl: UrlCheck) {
  const workspaces = await repositoryWorkspaces(db, companyId, filter);
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

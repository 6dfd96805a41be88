// Exporting a company as a package (src/domain/portability/format.ts). Small tables are read in
// one batch; issues, their comments and documents are read in pages of ISSUE_PAGE, so a company
// of 10,000 issues is never loaded in one query. Nothing secret leaves: secret references become
// placeholders, webhook secrets and public ids are left out, keys and sessions are never read.
// A reference to something the package leaves out (a terminated agent, a kind not included) is
// written as null: the importer refuses references that resolve to nothing in the package.
import { and, asc, eq, gt, ne } from "drizzle-orm";
import { inIds } from "../../db/id-list";
import { ReadBatch } from "../../db/read-batch";
import { schema, type Db } from "../../db/client";
import { notFound } from "../errors";
import { storedDesiredSkills, SKILL_SYNC_KEY } from "../agents/skills";
import { textOf } from "../skills/package";
import { redactSecrets } from "../redaction";
import { slugify } from "../users/slug";
import { markdownWith, uniqueKey, PACKAGE_FORMAT, PACKAGE_VERSION, withPlaceholders, type Include, type Manifest, type PackageFiles } from "./format";

const ISSUE_PAGE = 500;

export interface ExportResult {
  rootPath: string;
  files: PackageFiles;
  manifest: Manifest;
  warnings: string[];
}

const slugOf = (text: string) => slugify(text) || "item";

/** A unique path: `base`, else `base-2`, … */
const uniquePath = (taken: Set<string>, dir: string, base: string, ext: string) => `${uniqueKey(`${dir}/${base}`, taken)}${ext}`;

export async function exportCompany(env: Env, db: Db, companyId: string, include: Include, options: { countsOnly?: boolean } = {}): Promise<ExportResult> {
  const batch = new ReadBatch(db);
  const company = batch.add(db.select().from(schema.companies).where(eq(schema.companies.id, companyId)));
  const agents = batch.add(db.select().from(schema.agents).where(and(eq(schema.agents.companyId, companyId), ne(schema.agents.status, "terminated"))).orderBy(asc(schema.agents.createdAt)));
  const goals = batch.add(db.select().from(schema.goals).where(eq(schema.goals.companyId, companyId)).orderBy(asc(schema.goals.createdAt)));
  const projects = batch.add(db.select().from(schema.projects).where(eq(schema.projects.companyId, companyId)).orderBy(asc(schema.projects.createdAt)));
  const projectGoals = batch.add(db.select().from(schema.projectGoals).where(eq(schema.projectGoals.companyId, companyId)).orderBy(asc(schema.projectGoals.position)));
  const workspaces = batch.add(db.select().from(schema.projectWorkspaces).where(eq(schema.projectWorkspaces.companyId, companyId)).orderBy(asc(schema.projectWorkspaces.createdAt)));
  const labels = batch.add(db.select().from(schema.labels).where(eq(schema.labels.companyId, companyId)).orderBy(asc(schema.labels.name)));
  const routines = batch.add(db.select().from(schema.routines).where(eq(schema.routines.companyId, companyId)).orderBy(asc(schema.routines.createdAt)));
  const triggers = batch.add(db.select().from(schema.routineTriggers).where(eq(schema.routineTriggers.companyId, companyId)).orderBy(asc(schema.routineTriggers.createdAt)));
  const skills = batch.add(db.select().from(schema.companySkills).where(and(eq(schema.companySkills.companyId, companyId), ne(schema.companySkills.sourceType, "bundled"))));
  const skillFiles = batch.add(db.select().from(schema.companySkillFiles).where(eq(schema.companySkillFiles.companyId, companyId)));
  const secrets = batch.add(db.select({ id: schema.companySecrets.id, name: schema.companySecrets.name }).from(schema.companySecrets).where(eq(schema.companySecrets.companyId, companyId)));
  await batch.run();
  const row = company.value[0];
  if (!row) throw notFound("Company not found");

  const files: PackageFiles = {};
  const warnings: string[] = [];
  const taken = new Set<string>();
  const placeholders = new Map<string, Set<string>>();
  const secretName = new Map(secrets.value.map((s) => [s.id, s.name]));
  const counts: Record<string, number> = {};
  const put = (path: string, text: string) => {
    if (!options.countsOnly) files[path] = text;
  };
  /** Literal secret-looking values are redacted and secret references become placeholders (noted against `path`). */
  // What the package holds, per kind (issues: every issue of the company, when included).
  const holds = {
    agents: new Set(include.agents ? agents.value.map((a) => a.id) : []),
    goals: new Set(include.goals ? goals.value.map((g) => g.id) : []),
    projects: new Set(include.projects ? projects.value.map((p) => p.id) : []),
    labels: new Set(include.labels ? labels.value.map((l) => l.id) : []),
  };
  let dropped = 0;
  /** `id` when the package holds it, else null (counted for the warning). */
  const held = (kind: keyof typeof holds | "issues", id: string | null): string | null => {
    if (!id) return null;
    if (kind === "issues" ? include.issues : holds[kind].has(id)) return id;
    dropped++;
    return null;
  };
  const heldAll = (kind: keyof typeof holds, ids: string[]) => ids.map((id) => held(kind, id)).filter((id): id is string => id !== null);
  const scrub = (value: unknown, path: string) => {
    const found = new Set<string>();
    const out = withPlaceholders(redactSecrets(value), (id) => secretName.get(id), found);
    for (const name of found) placeholders.set(name, (placeholders.get(name) ?? new Set()).add(path));
    return out;
  };

  if (include.company) {
    put(
      "company.md",
      markdownWith(
        { name: row.name, brandColor: row.brandColor, budgetMonthlyCents: row.budgetMonthlyCents, requireBoardApprovalForNewAgents: row.requireBoardApprovalForNewAgents },
        row.description,
      ),
    );
  }
  if (include.agents) {
    counts.agents = agents.value.length;
    for (const agent of agents.value) {
      const path = uniquePath(taken, "agents", agent.urlKey || slugOf(agent.name), ".md");
      const { [SKILL_SYNC_KEY]: _sync, ...adapterConfig } = agent.adapterConfig ?? {};
      put(
        path,
        markdownWith(
          {
            id: agent.id,
            name: agent.name,
            role: agent.role,
            title: agent.title,
            icon: agent.icon,
            reportsTo: held("agents", agent.reportsTo),
            adapterType: agent.adapterType,
            adapterConfig: scrub(adapterConfig, path),
            runtimeConfig: scrub(agent.runtimeConfig, path),
            budgetMonthlyCents: agent.budgetMonthlyCents,
            desiredSkills: storedDesiredSkills(agent.adapterConfig),
            metadata: agent.metadata,
          },
          agent.capabilities,
        ),
      );
    }
  }
  if (include.goals) {
    counts.goals = goals.value.length;
    for (const goal of goals.value) {
      put(
        uniquePath(taken, "goals", goal.id, ".md"),
        markdownWith({ id: goal.id, title: goal.title, level: goal.level, status: goal.status, parentId: goal.parentId, ownerAgentId: held("agents", goal.ownerAgentId), isCompanyDefault: goal.isCompanyDefault }, goal.description),
      );
    }
  }
  if (include.projects) {
    counts.projects = projects.value.length;
    for (const project of projects.value) {
      const path = uniquePath(taken, "projects", project.urlKey || slugOf(project.name), ".md");
      put(
        path,
        markdownWith(
          {
            id: project.id,
            name: project.name,
            status: project.status,
            goalIds: heldAll("goals", projectGoals.value.filter((g) => g.projectId === project.id).map((g) => g.goalId)),
            leadAgentId: held("agents", project.leadAgentId),
            targetDate: project.targetDate,
            color: project.color,
            env: scrub(project.env, path),
            workspaces: workspaces.value
              .filter((w) => w.projectId === project.id)
              .map((w) => ({ name: w.name, sourceType: w.sourceType, cwd: w.cwd, repoUrl: w.repoUrl, repoRef: w.repoRef, defaultRef: w.defaultRef, setupCommand: w.setupCommand, cleanupCommand: w.cleanupCommand, isPrimary: w.isPrimary })),
          },
          project.description,
        ),
      );
    }
  }
  if (include.labels) {
    counts.labels = labels.value.length;
    put("labels.json", JSON.stringify(labels.value.map((l) => ({ id: l.id, name: l.name, color: l.color })), null, 2));
  }
  if (include.issues) {
    counts.issues = 0;
    counts.comments = 0;
    counts.documents = 0;
    for (let after = ""; ; ) {
      const page = await db
        .select()
        .from(schema.issues)
        .where(and(eq(schema.issues.companyId, companyId), gt(schema.issues.id, after)))
        .orderBy(asc(schema.issues.id))
        .limit(ISSUE_PAGE);
      if (!page.length) break;
      after = page[page.length - 1].id;
      const ids = page.map((i) => i.id);
      const pageBatch = new ReadBatch(db);
      const blockers = pageBatch.add(db.select().from(schema.issueBlockers).where(inIds(schema.issueBlockers.issueId, ids)));
      const issueLabels = pageBatch.add(db.select().from(schema.issueLabels).where(inIds(schema.issueLabels.issueId, ids)));
      const comments = include.comments ? pageBatch.add(db.select().from(schema.issueComments).where(inIds(schema.issueComments.issueId, ids)).orderBy(asc(schema.issueComments.createdAt))) : null;
      const documents = include.documents
        ? pageBatch.add(
            db
              .select({ issueId: schema.issueDocuments.issueId, key: schema.issueDocuments.key, title: schema.issueDocumentRevisions.title, format: schema.issueDocumentRevisions.format, body: schema.issueDocumentRevisions.body })
              .from(schema.issueDocuments)
              .innerJoin(schema.issueDocumentRevisions, eq(schema.issueDocumentRevisions.id, schema.issueDocuments.latestRevisionId))
              .where(inIds(schema.issueDocuments.issueId, ids)),
          )
        : null;
      await pageBatch.run();
      for (const issue of page) {
        counts.issues++;
        const base = `issues/${issue.identifier}`;
        put(
          `${base}.md`,
          markdownWith(
            {
              id: issue.id,
              identifier: issue.identifier,
              title: issue.title,
              status: issue.status,
              priority: issue.priority,
              parentId: issue.parentId,
              projectId: held("projects", issue.projectId),
              goalId: held("goals", issue.goalId),
              assigneeAgentId: held("agents", issue.assigneeAgentId),
              blockedByIssueIds: blockers.value.filter((b) => b.issueId === issue.id).map((b) => b.blockerIssueId),
              labelIds: heldAll("labels", issueLabels.value.filter((l) => l.issueId === issue.id).map((l) => l.labelId)),
              originKind: issue.originKind,
              originId: issue.originId,
            },
            issue.description,
          ),
        );
        const own = comments?.value.filter((c) => c.issueId === issue.id) ?? [];
        if (own.length) {
          counts.comments += own.length;
          put(`${base}/comments.json`, JSON.stringify(own.map((c) => ({ authorAgentId: c.authorAgentId, authorUserId: c.authorUserId, body: c.body, createdAt: c.createdAt })), null, 2));
        }
        for (const doc of documents?.value.filter((d) => d.issueId === issue.id) ?? []) {
          counts.documents++;
          put(`${base}/documents/${doc.key}.md`, markdownWith({ key: doc.key, title: doc.title, format: doc.format }, doc.body));
        }
      }
      if (page.length < ISSUE_PAGE) break;
    }
  }
  if (include.routines) {
    counts.routines = routines.value.length;
    for (const routine of routines.value) {
      put(
        uniquePath(taken, "routines", routine.id, ".md"),
        markdownWith(
          {
            id: routine.id,
            title: routine.title,
            assigneeAgentId: held("agents", routine.assigneeAgentId),
            projectId: held("projects", routine.projectId),
            goalId: held("goals", routine.goalId),
            parentIssueId: held("issues", routine.parentIssueId),
            priority: routine.priority,
            status: routine.status,
            concurrencyPolicy: routine.concurrencyPolicy,
            catchUpPolicy: routine.catchUpPolicy,
            variables: routine.variables,
            // Webhook secrets and public ids are never exported: the importer gets new ones.
            triggers: triggers.value
              .filter((t) => t.routineId === routine.id)
              .map((t) => ({ kind: t.kind, label: t.label, enabled: t.enabled, cronExpression: t.cronExpression, timezone: t.timezone, signingMode: t.signingMode, replayWindowSec: t.replayWindowSec })),
          },
          routine.description,
        ),
      );
    }
  }
  if (include.skills) {
    counts.skills = skills.value.length;
    for (const skill of skills.value) {
      for (const file of skillFiles.value.filter((f) => f.skillId === skill.id)) {
        if (options.countsOnly) continue;
        const object = await env.FILES.get(file.objectKey);
        const text = object ? textOf(new Uint8Array(await object.arrayBuffer())) : null;
        if (text === null) {
          warnings.push(`skills/${skill.key}/${file.path}: binary or missing file left out`);
          continue;
        }
        put(`skills/${skill.key}/${file.path}`, text);
      }
    }
  }
  const manifest: Manifest = {
    format: PACKAGE_FORMAT,
    version: PACKAGE_VERSION,
    exportedAt: new Date().toISOString(),
    company: { id: row.id, name: row.name },
    include,
    counts,
    secretPlaceholders: [...placeholders].map(([name, usedBy]) => ({ name, usedBy: [...usedBy].sort() })).sort((a, b) => (a.name < b.name ? -1 : 1)),
  };
  if (dropped) warnings.push(`${dropped} reference${dropped === 1 ? "" : "s"} to terminated agents or to things the package leaves out ${dropped === 1 ? "was" : "were"} written as empty`);
  if (manifest.secretPlaceholders.length) warnings.push(`Secret references became placeholders the importer must bind: ${manifest.secretPlaceholders.map((p) => p.name).join(", ")}`);
  put("manifest.json", JSON.stringify(manifest, null, 2));
  return { rootPath: slugOf(row.name), files, manifest, warnings };
}

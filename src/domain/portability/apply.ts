// Applying a company package, in the company's Durable Object: the plan (src/domain/portability/
// plan.ts) becomes rows with every relation mapped to the new ids, issue numbers come from the
// object's counter, and the rows are written in bounded D1 batches (IMPORT_BATCH statements each),
// parents before children (reporting lines, goal and issue trees are ordered topologically), so
// every batch is consistent on its own. All or nothing: if a later batch fails, the rows of the
// earlier ones are deleted again (by their new ids) before the error is returned. The import is
// recorded under the package's hash in the last batch, so a retried apply of the same package
// returns the first result instead of importing twice.
import { and, eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import type { Statement } from "../../db/batch";
import { defineCommand, type CommandContext } from "../../company/command";
import { newId } from "../../crypto/random";
import { conflict, HttpError, unprocessable } from "../errors";
import { findAdapter, validateAdapterConfig } from "../../adapters";
import { inIds } from "../../db/id-list";
import { deriveUrlKey } from "../agents/naming";
import { slugify } from "../users/slug";
import { newIssueRow } from "../issues/commands";
import { commitIssueNumber, companyCounterStatement, issueNumbering } from "../issues/numbering";
import { withDesiredSkills } from "../agents/skills";
import { compileSchedule, DEFAULT_TIMEZONE, nextSlot } from "../routines/schedule";
import { newPublicId, newWebhookSecret, sealWebhookSecret } from "../routines/webhook-signature";
import { installPackage } from "../skills/library";
import { buildSkillPackage, utf8 } from "../skills/package";
import { bindPlaceholders, uniqueKey, type Include, type PackageFiles } from "./format";
import { parsePackage } from "./parse";
import { loadTarget, planImport, planView, type CollisionStrategy, type ImportPlan } from "./plan";

/** Statements per D1 batch of an import. */
export const IMPORT_BATCH = 500;

/** `items` with every item after the one its `parentOf` names (parents outside `items` are ignored). */
function parentsFirst<T extends { id: string }>(items: T[], parentOf: (item: T) => string | null): T[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  const placed = new Set<string>();
  const out: T[] = [];
  const visit = (item: T) => {
    if (placed.has(item.id)) return;
    placed.add(item.id);
    const parent = parentOf(item);
    if (parent && byId.has(parent)) visit(byId.get(parent)!);
    out.push(item);
  };
  items.forEach(visit);
  return out;
}



export interface ApplyImportInput {
  files: PackageFiles;
  /** What the import takes from the package (references to what it leaves out are dropped). */
  include?: Partial<Include>;
  packageHash: string;
  collisionStrategy: CollisionStrategy;
  secretBindings?: Record<string, string>;
}

export const applyCompanyImport = defineCommand("company.import_apply", async (ctx, _actor, input: ApplyImportInput) => {
  const [previous] = await ctx.batch([
    ctx.db
      .select({ id: schema.companyImports.id, result: schema.companyImports.result })
      .from(schema.companyImports)
      .where(and(eq(schema.companyImports.companyId, ctx.companyId), eq(schema.companyImports.packageHash, input.packageHash))),
  ]);
  if (previous[0]) return { ...(previous[0].result as Record<string, unknown>), importId: previous[0].id, duplicate: true };

  const pkg = parsePackage(input.files, input.include);
  const target = await loadTarget(ctx.db, ctx.companyId);
  const plan = planImport(pkg, target, { collisionStrategy: input.collisionStrategy, secretBindings: input.secretBindings });
  if (plan.unboundSecrets.length) {
    throw unprocessable(`Bind the package's secret placeholders first (secretBindings): ${plan.unboundSecrets.join(", ")}`, { unboundSecrets: plan.unboundSecrets });
  }
  const { ids } = plan;
  const map = (kind: keyof typeof ids, id: string | null | undefined) => (id ? (ids[kind].get(id) ?? null) : null);
  const bind = (value: unknown) => bindPlaceholders(value, plan.secretBindings, new Set()) as Record<string, unknown> | null;
  const now = ctx.now;
  const statements: Statement[] = [];
  const at = { createdAt: now, updatedAt: now };

  // URL keys are unique per company: the target's (already read for the plan) and the new ones.
  const agentKeys = new Set(target.agents.map((a) => a.urlKey));
  for (const agent of parentsFirst(pkg.agents.filter((a) => plan.create.agents.has(a.id)), (a) => a.reportsTo)) {
    const name = plan.names.get(agent.id)!;
    // The same adapter rules as a create: an unknown adapter or a broken config is a 422 naming the file.
    let adapterConfig: Record<string, unknown>;
    try {
      adapterConfig = validateAdapterConfig(agent.adapterType, bind(agent.adapterConfig) ?? {}, { creating: true });
      findAdapter(agent.adapterType)?.checkPolicy?.(adapterConfig, { exposure: ctx.env.SERVER_EXPOSURE === "public" ? "public" : "private" });
    } catch (err) {
      if (err instanceof HttpError) throw unprocessable(`${agent.path}: ${err.message}`, { path: agent.path, details: err.details });
      throw err;
    }
    statements.push(
      ctx.db.insert(schema.agents).values({
        id: ids.agents.get(agent.id)!,
        companyId: ctx.companyId,
        name,
        urlKey: uniqueKey(deriveUrlKey(name), agentKeys),
        role: agent.role,
        title: agent.title,
        icon: agent.icon,
        capabilities: agent.capabilities,
        reportsTo: map("agents", agent.reportsTo),
        adapterType: agent.adapterType,
        adapterConfig: withDesiredSkills(adapterConfig, agent.desiredSkills),
        runtimeConfig: bind(agent.runtimeConfig) ?? {},
        budgetMonthlyCents: agent.budgetMonthlyCents,
        status: "idle",
        permissions: {},
        metadata: agent.metadata,
        ...at,
      }),
    );
  }
  for (const goal of parentsFirst(pkg.goals.filter((g) => plan.create.goals.has(g.id)), (g) => g.parentId)) {
    statements.push(
      ctx.db.insert(schema.goals).values({
        id: ids.goals.get(goal.id)!,
        companyId: ctx.companyId,
        title: plan.names.get(goal.id)!,
        description: goal.description,
        level: goal.level,
        status: goal.status,
        parentId: map("goals", goal.parentId),
        ownerAgentId: map("agents", goal.ownerAgentId),
        // The target keeps its own default goal.
        isCompanyDefault: false,
        ...at,
      }),
    );
  }
  const projectKeys = new Set(target.projects.map((p) => p.urlKey));
  for (const project of pkg.projects.filter((p) => plan.create.projects.has(p.id))) {
    const id = ids.projects.get(project.id)!;
    const name = plan.names.get(project.id)!;
    const goalIds = project.goalIds.map((g) => map("goals", g)).filter((g): g is string => Boolean(g));
    statements.push(
      ctx.db.insert(schema.projects).values({
        id,
        companyId: ctx.companyId,
        name,
        urlKey: uniqueKey(slugify(name) || "project", projectKeys),
        description: project.description,
        status: project.status,
        goalId: goalIds[0] ?? null,
        leadAgentId: map("agents", project.leadAgentId),
        targetDate: project.targetDate,
        color: project.color,
        env: bind(project.env),
        ...at,
      }),
      ...goalIds.map((goalId, position) => ctx.db.insert(schema.projectGoals).values({ projectId: id, goalId, companyId: ctx.companyId, position })),
      ...project.workspaces.map((w) =>
        ctx.db.insert(schema.projectWorkspaces).values({
          id: newId(),
          companyId: ctx.companyId,
          projectId: id,
          name: w.name,
          sourceType: w.sourceType,
          cwd: w.cwd,
          repoUrl: w.repoUrl,
          repoRef: w.repoRef,
          defaultRef: w.defaultRef,
          visibility: "default",
          setupCommand: w.setupCommand,
          cleanupCommand: w.cleanupCommand,
          isPrimary: w.isPrimary,
          desiredState: "stopped",
          ...at,
        }),
      ),
    );
  }
  for (const label of pkg.labels.filter((l) => plan.create.labels.has(l.id))) {
    const name = plan.names.get(label.id)!;
    statements.push(ctx.db.insert(schema.labels).values({ id: ids.labels.get(label.id)!, companyId: ctx.companyId, name, nameKey: name.toLowerCase(), color: label.color, ...at }));
  }
  // Issues: numbers from the object's counter, in package order (parents need not come first: ids are known).
  const numbering = await issueNumbering(ctx);
  let number = numbering.next - 1;
  const issueChildren: Statement[] = [];
  for (const issue of parentsFirst(pkg.issues, (i) => i.parentId)) {
    number++;
    const id = ids.issues.get(issue.id)!;
    const routineOrigin = issue.originKind === "routine_execution" ? map("routines", issue.originId) : null;
    const row = newIssueRow(ctx, { type: "none", runId: null }, {
      id,
      number,
      identifier: `${numbering.prefix}-${number}`,
      title: issue.title,
      description: issue.description,
      status: issue.status,
      priority: issue.priority,
      projectId: map("projects", issue.projectId),
      goalId: map("goals", issue.goalId),
      parentId: map("issues", issue.parentId),
      assigneeAgentId: map("agents", issue.assigneeAgentId),
      originKind: routineOrigin ? "routine_execution" : issue.originKind && issue.originKind !== "routine_execution" ? issue.originKind : "manual",
      originId: routineOrigin ?? (issue.originKind === "routine_execution" ? null : (issue.originId ?? null)),
    });
    statements.push(ctx.db.insert(schema.issues).values(row));
    for (const blocker of issue.blockedByIssueIds) issueChildren.push(ctx.db.insert(schema.issueBlockers).values({ issueId: id, blockerIssueId: ids.issues.get(blocker)!, companyId: ctx.companyId, createdAt: now }));
    for (const label of issue.labelIds) issueChildren.push(ctx.db.insert(schema.issueLabels).values({ issueId: id, labelId: ids.labels.get(label)!, companyId: ctx.companyId }));
    for (const comment of issue.comments) {
      issueChildren.push(
        ctx.db.insert(schema.issueComments).values({
          id: newId(),
          companyId: ctx.companyId,
          issueId: id,
          body: comment.body,
          authorAgentId: map("agents", comment.authorAgentId),
          authorUserId: comment.authorUserId,
          createdAt: comment.createdAt ?? now,
          updatedAt: now,
        }),
      );
    }
    for (const doc of issue.documents) {
      const documentId = newId();
      const revisionId = newId();
      issueChildren.push(
        ctx.db.insert(schema.issueDocuments).values({ id: documentId, companyId: ctx.companyId, issueId: id, key: doc.key, title: doc.title, format: doc.format ?? "markdown", latestRevisionId: revisionId, latestRevisionNumber: 1, ...at }),
        ctx.db.insert(schema.issueDocumentRevisions).values({ id: revisionId, companyId: ctx.companyId, issueId: id, documentId, revisionNumber: 1, title: doc.title, format: doc.format ?? "markdown", body: doc.body, createdAt: now }),
      );
    }
  }
  // Blockers, labels, comments and documents after every issue (a blocker may come later in the package).
  statements.push(...issueChildren);
  const sealed: Array<Promise<void>> = [];
  for (const routine of pkg.routines.filter((r) => plan.create.routines.has(r.id))) {
    const id = ids.routines.get(routine.id)!;
    const assignee = map("agents", routine.assigneeAgentId);
    const status = assignee ? routine.status : routine.status === "active" ? "paused" : routine.status;
    statements.push(
      ctx.db.insert(schema.routines).values({
        id,
        companyId: ctx.companyId,
        title: plan.names.get(routine.id)!,
        description: routine.description,
        assigneeAgentId: assignee,
        projectId: map("projects", routine.projectId),
        goalId: map("goals", routine.goalId),
        parentIssueId: map("issues", routine.parentIssueId),
        priority: routine.priority,
        status,
        concurrencyPolicy: routine.concurrencyPolicy,
        catchUpPolicy: routine.catchUpPolicy,
        variables: routine.variables.map((v) => ({ ...v, label: v.label ?? null, defaultValue: v.defaultValue ?? null })),
        version: 0,
        ...at,
      }),
    );
    for (const trigger of routine.triggers) {
      const triggerId = newId();
      const schedule = trigger.kind === "schedule" && trigger.cronExpression ? compileSchedule(trigger.cronExpression, trigger.timezone ?? DEFAULT_TIMEZONE) : null;
      const row = {
        id: triggerId,
        companyId: ctx.companyId,
        routineId: id,
        kind: trigger.kind,
        label: trigger.label,
        enabled: trigger.enabled,
        cronExpression: trigger.cronExpression,
        timezone: trigger.kind === "schedule" ? (trigger.timezone ?? DEFAULT_TIMEZONE) : null,
        nextRunAt: schedule && trigger.enabled && status === "active" ? nextSlot(schedule, new Date(now)) : null,
        signingMode: trigger.kind === "webhook" ? (trigger.signingMode ?? "bearer") : null,
        replayWindowSec: trigger.kind === "webhook" ? (trigger.replayWindowSec ?? 300) : null,
        // Webhooks get a new public id and secret (never exported): rotate the secret to read it.
        publicId: trigger.kind === "webhook" ? newPublicId() : null,
        secretCiphertext: null as string | null,
        secretVersion: 0,
        ...at,
      };
      if (trigger.kind === "webhook") sealed.push(sealWebhookSecret(ctx.env, triggerId, 0, newWebhookSecret()).then((s) => void (row.secretCiphertext = s)));
      statements.push(ctx.db.insert(schema.routineTriggers).values(row));
    }
  }
  await Promise.all(sealed);
  for (const skill of pkg.skills.filter((s) => plan.create.skills.has(s.key))) {
    const built = buildSkillPackage(Object.entries(skill.files).map(([path, text]) => ({ path, bytes: utf8(text) })));
    const installed = await installPackage(ctx, { pkg: built, key: skill.key, sourceType: "managed_local", sourceRef: null, sourceCommit: null, originHash: null }, null);
    statements.push(...installed.statements);
  }
  const importId = newId();
  const result = { importId, ...planView(plan), idMap: Object.fromEntries(Object.entries(ids).map(([k, m]) => [k, Object.fromEntries(m)])) };
  // The last batch: the counter, the import record and the activity entry.
  const closing: Statement[] = [
    ...(pkg.issues.length ? [companyCounterStatement(ctx, number)] : []),
    ctx.db.insert(schema.companyImports).values({ id: importId, companyId: ctx.companyId, packageHash: input.packageHash, result, createdAt: now }),
    ctx.activity({ action: "company.imported", entityType: "company", entityId: ctx.companyId, details: { importId, source: pkg.manifest.company, created: plan.counts.create, skipped: plan.counts.skip } }),
  ];
  const chunks: Statement[][] = [];
  for (let i = 0; i < statements.length; i += IMPORT_BATCH) chunks.push(statements.slice(i, i + IMPORT_BATCH));
  chunks.push(closing);
  let written = 0;
  try {
    for (const chunk of chunks) {
      // Rows of one batch may refer to each other in any order: foreign keys are checked at its commit.
      await ctx.batch([ctx.db.run(sql`PRAGMA defer_foreign_keys = on`), ...chunk]);
      written++;
    }
  } catch (err) {
    if (written > 0) await undoImport(ctx, plan);
    if (String((err as Error)?.message ?? err).includes("company_imports")) throw conflict("This package was imported concurrently; retry to read the result");
    throw err;
  }
  if (pkg.issues.length) commitIssueNumber(ctx, number);
  return { ...result, duplicate: false };
});

/** Deletes what the earlier batches of a failed import wrote (by the plan's new ids); dependent rows go with them. */
async function undoImport(ctx: CommandContext, plan: ImportPlan) {
  const created = (kind: keyof ImportPlan["ids"]) => [...plan.create[kind]].map((old) => plan.ids[kind].get(old)!);
  const c = ctx.companyId;
  try {
    await ctx.batch([
      ctx.db.run(sql`PRAGMA defer_foreign_keys = on`),
      ctx.db.delete(schema.routines).where(and(eq(schema.routines.companyId, c), inIds(schema.routines.id, created("routines")))),
      ctx.db.delete(schema.issues).where(and(eq(schema.issues.companyId, c), inIds(schema.issues.id, created("issues")))),
      ctx.db.delete(schema.projects).where(and(eq(schema.projects.companyId, c), inIds(schema.projects.id, created("projects")))),
      ctx.db.delete(schema.labels).where(and(eq(schema.labels.companyId, c), inIds(schema.labels.id, created("labels")))),
      ctx.db.delete(schema.goals).where(and(eq(schema.goals.companyId, c), inIds(schema.goals.id, created("goals")))),
      ctx.db.delete(schema.agents).where(and(eq(schema.agents.companyId, c), inIds(schema.agents.id, created("agents")))),
      ctx.db.delete(schema.companySkills).where(and(eq(schema.companySkills.companyId, c), inIds(schema.companySkills.key, [...plan.create.skills]))),
    ]);
  } catch (err) {
    console.error("undoing a failed import failed", err);
  }
}

export const portabilityCommands = [applyCompanyImport];

export type { CommandContext };

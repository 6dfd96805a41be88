// Projects: projects/<urlKey>.md (id, name, status, goalIds, leadAgentId, targetDate, color, env,
// workspaces; body: description). Secret references in env become placeholders; imported
// workspaces start stopped.
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { schema } from "../../../db/client";
import { inIds } from "../../../db/id-list";
import { newId } from "../../../crypto/random";
import { PROJECT_STATUSES, WORKSPACE_SOURCE_TYPES } from "../../../db/schema/projects";
import { slugify } from "../../users/slug";
import { markdownWith, slugOf, uniqueKey } from "../format";
import { createdIds, defineKind } from "./kind";
import { id, nullableId, record, text } from "./fields";

/** The longest project name (an import's renames stay within it). */
export const PROJECT_NAME_MAX = 200;

const WorkspaceSchema = z.object({
  name: z.string().min(1).max(200),
  sourceType: z.enum(WORKSPACE_SOURCE_TYPES),
  cwd: text(4000),
  repoUrl: text(2000),
  repoRef: text(500),
  defaultRef: text(500),
  setupCommand: text(4000),
  cleanupCommand: text(4000),
  isPrimary: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
});
const ProjectSchema = z.object({
  id,
  name: z.string().trim().min(1).max(PROJECT_NAME_MAX),
  status: z.enum(PROJECT_STATUSES),
  goalIds: z
    .array(id)
    .max(1000)
    .nullish()
    .transform((v) => v ?? []),
  leadAgentId: nullableId,
  targetDate: text(1000),
  color: text(20),
  env: record.nullish().transform((v) => v ?? null),
  workspaces: z
    .array(WorkspaceSchema)
    .max(1000)
    .nullish()
    .transform((v) => v ?? []),
});

export type PkgProject = z.infer<typeof ProjectSchema> & { path: string; description: string | null };

export const projects = defineKind<PkgProject[]>({
  key: "projects",
  noun: "project",
  references: [
    { field: "goalIds", to: "goals" },
    { field: "leadAgentId", to: "agents" },
  ],
  exportPart({ db, companyId, batch }) {
    const rows = batch.add(db.select().from(schema.projects).where(eq(schema.projects.companyId, companyId)).orderBy(asc(schema.projects.createdAt)));
    const projectGoals = batch.add(
      db.select().from(schema.projectGoals).where(eq(schema.projectGoals.companyId, companyId)).orderBy(asc(schema.projectGoals.position)),
    );
    const workspaces = batch.add(
      db.select().from(schema.projectWorkspaces).where(eq(schema.projectWorkspaces.companyId, companyId)).orderBy(asc(schema.projectWorkspaces.createdAt)),
    );
    return {
      ids: () => rows.value.map((p) => p.id),
      write(ctx) {
        ctx.counts.projects = rows.value.length;
        for (const project of rows.value) {
          const path = ctx.uniquePath("projects", project.urlKey || slugOf(project.name), ".md");
          ctx.put(
            path,
            markdownWith(
              {
                id: project.id,
                name: project.name,
                status: project.status,
                goalIds: ctx.heldAll(
                  "goals",
                  projectGoals.value.filter((g) => g.projectId === project.id).map((g) => g.goalId),
                ),
                leadAgentId: ctx.held("agents", project.leadAgentId),
                targetDate: project.targetDate,
                color: project.color,
                env: ctx.scrub(project.env, path),
                workspaces: workspaces.value
                  .filter((w) => w.projectId === project.id)
                  .map((w) => ({
                    name: w.name,
                    sourceType: w.sourceType,
                    cwd: w.cwd,
                    repoUrl: w.repoUrl,
                    repoRef: w.repoRef,
                    defaultRef: w.defaultRef,
                    setupCommand: w.setupCommand,
                    cleanupCommand: w.cleanupCommand,
                    isPrimary: w.isPrimary,
                  })),
              },
              project.description,
            ),
          );
        }
      },
    };
  },
  parse: (pkg) =>
    pkg.under("projects", ".md").map((path) => {
      const { fields, body } = pkg.markdown(path);
      return { ...pkg.check(ProjectSchema, fields, path), path, description: pkg.bounded(body, path) };
    }),
  secretValues: (project) => project.env,
  apply(ctx, items) {
    const { command, plan } = ctx;
    const at = ctx.at;
    // URL keys are unique per company: the target's (already read for the plan) and the new ones.
    const urlKeys = new Set(ctx.target.projects.map((p) => p.urlKey));
    for (const project of items.filter((p) => plan.create.projects.has(p.id))) {
      const projectId = plan.ids.projects.get(project.id)!;
      const name = plan.names.get(project.id)!;
      const goalIds = project.goalIds.map((g) => ctx.map("goals", g)).filter((g): g is string => Boolean(g));
      ctx.statements.push(
        command.db.insert(schema.projects).values({
          id: projectId,
          companyId: command.companyId,
          name,
          urlKey: uniqueKey(slugify(name) || "project", urlKeys),
          description: project.description,
          status: project.status,
          goalId: goalIds[0] ?? null,
          leadAgentId: ctx.map("agents", project.leadAgentId),
          targetDate: project.targetDate,
          color: project.color,
          env: ctx.bind(project.env),
          ...at,
        }),
        ...goalIds.map((goalId, position) => command.db.insert(schema.projectGoals).values({ projectId, goalId, companyId: command.companyId, position })),
        ...project.workspaces.map((w) =>
          command.db.insert(schema.projectWorkspaces).values({
            id: newId(),
            companyId: command.companyId,
            projectId,
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
  },
  undo: (ctx, plan) =>
    ctx.db.delete(schema.projects).where(and(eq(schema.projects.companyId, ctx.companyId), inIds(schema.projects.id, createdIds(plan, "projects")))),
});

// Bootstrapping a wiki (board, idempotent): the default space's missing control files, then what
// the wiki manages in the company — a paused "Wiki Maintainer" agent, a project for its operation
// issues, the wiki skills in the company library and paused maintenance routines (nightly lint,
// hourly index refresh) — each created through its own area's command, and only when missing.
// The wiki_instances row remembers what it manages.
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { defineCommand, type CommandContext, type CommandLoader } from "../../company/command";
import type { Actor } from "../actor";
import { HttpError } from "../errors";
import { newId } from "../../crypto/random";
import { createAgent } from "../agents/commands";
import { changeAgentLifecycle } from "../agents/lifecycle-commands";
import { createProject } from "../projects/commands";
import { createManagedSkill, patchSkillFile } from "../skills/commands";
import { createRoutine, createTrigger } from "../routines/commands";
import { serviceApiUrl } from "../../config";
import { DEFAULT_SPACE_SLUG, wikiIdOf, type WikiRef } from "./space";
import { bootstrapControlFiles } from "./spaces";
import { operationInsert } from "./operations";
import { MAINTAINER, PROJECT, ROUTINES, SKILLS } from "./templates";
import { spaceView } from "./view";

type InstanceRow = typeof schema.wikiInstances.$inferSelect;

/** Runs another area's command loader as this command's own read (the command then runs with it). */
const loadOf = <I, L>(command: { load?: CommandLoader<I, L> }, ctx: CommandContext, actor: Actor, input: I) =>
  command.load!(ctx.db, { env: ctx.env, actor, now: ctx.now, companyId: ctx.companyId }, input);

/** The maintainer: the managed agent when it still exists (not terminated), else a new paused one. */
async function ensureMaintainer(ctx: CommandContext, actor: Actor, instance: InstanceRow | undefined) {
  const a = schema.agents;
  if (instance?.managedAgentId) {
    const [row] = await ctx.db
      .select({ id: a.id, name: a.name, status: a.status })
      .from(a)
      .where(and(eq(a.id, instance.managedAgentId), eq(a.companyId, ctx.companyId)));
    if (row && row.status !== "terminated") return { ...row, created: false };
  }
  const { agent } = await createAgent.run(ctx, actor, {
    mode: "create",
    fields: {
      name: MAINTAINER.name,
      role: MAINTAINER.role,
      title: MAINTAINER.title,
      capabilities: MAINTAINER.capabilities,
      adapterType: MAINTAINER.adapterType,
      adapterConfig: {},
      metadata: { managedBy: "knowledge-wiki" },
    },
  });
  const paused = await changeAgentLifecycle.run(ctx, actor, { agentId: agent.id, action: "pause" });
  return { id: paused.id as string, name: paused.name as string, status: paused.status as string, created: true };
}

async function ensureProject(ctx: CommandContext, actor: Actor, instance: InstanceRow | undefined, leadAgentId: string) {
  const pr = schema.projects;
  if (instance?.managedProjectId) {
    const [row] = await ctx.db
      .select({ id: pr.id, name: pr.name })
      .from(pr)
      .where(and(eq(pr.id, instance.managedProjectId), eq(pr.companyId, ctx.companyId)));
    if (row) return row;
  }
  // A project of the company may hold the name already: the next free "Knowledge Wiki N".
  for (let n = 1; ; n++) {
    try {
      const project = await createProject.run(ctx, actor, {
        fields: { name: n === 1 ? PROJECT.name : `${PROJECT.name} ${n}`, description: PROJECT.description, status: "in_progress", leadAgentId },
      });
      return { id: project.id as string, name: project.name as string };
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 409 || n >= 20) throw err;
    }
  }
}

async function ensureSkills(ctx: CommandContext, actor: Actor) {
  const s = schema.companySkills;
  const skills: Array<{ id: string; key: string; name: string }> = [];
  for (const skill of SKILLS) {
    const key = `company/${skill.slug}`;
    const [row] = await ctx.db
      .select({ id: s.id, key: s.key, name: s.name })
      .from(s)
      .where(and(eq(s.companyId, ctx.companyId), eq(s.key, key)));
    if (row) {
      skills.push(row);
      continue;
    }
    const created = await createManagedSkill.run(ctx, actor, { name: skill.name, slug: skill.slug, description: skill.description });
    const frontmatter = `---\nname: ${JSON.stringify(skill.name)}\nslug: ${skill.slug}\nkey: ${key}\ndescription: ${JSON.stringify(skill.description)}\n---\n\n`;
    await patchSkillFile.run(ctx, actor, { skillId: created.id, path: "SKILL.md", content: frontmatter + skill.body });
    skills.push({ id: created.id, key: created.key, name: created.name });
  }
  return skills;
}

async function ensureRoutines(ctx: CommandContext, actor: Actor, instance: InstanceRow | undefined, agentId: string, projectId: string) {
  const r = schema.routines;
  const kept = instance?.managedRoutineIds.length ? await ctx.db.select({ id: r.id, title: r.title }).from(r).where(eq(r.companyId, ctx.companyId)) : [];
  const ids: string[] = [];
  for (const routine of ROUTINES) {
    const existing = kept.find((row) => instance!.managedRoutineIds.includes(row.id) && row.title === routine.title);
    if (existing) {
      ids.push(existing.id);
      continue;
    }
    const body = {
      title: routine.title,
      description: routine.description,
      assigneeAgentId: agentId,
      projectId,
      status: "paused" as const,
      priority: "low" as const,
      concurrencyPolicy: "skip_if_active" as const,
      catchUpPolicy: "skip_missed" as const,
    };
    const created = await createRoutine.run(ctx, actor, body, await loadOf(createRoutine, ctx, actor, body));
    const trigger = {
      routineId: created.id,
      body: { kind: "schedule" as const, label: routine.key, enabled: true, cronExpression: routine.cronExpression, timezone: "UTC" },
      publicBaseUrl: serviceApiUrl(ctx.env),
    };
    await createTrigger.run(ctx, actor, trigger, await loadOf(createTrigger, ctx, actor, trigger));
    ids.push(created.id);
  }
  return ids;
}

export const bootstrapWiki = defineCommand("wiki.bootstrap", async (ctx, actor, input: WikiRef) => {
  const ref = { wikiId: wikiIdOf(input), spaceSlug: DEFAULT_SPACE_SLUG };
  const i = schema.wikiInstances;
  const [instance] = await ctx.db
    .select()
    .from(i)
    .where(and(eq(i.companyId, ctx.companyId), eq(i.wikiId, ref.wikiId)));
  const files = await bootstrapControlFiles(ctx, actor, ref);
  const maintainer = await ensureMaintainer(ctx, actor, instance);
  const project = await ensureProject(ctx, actor, instance, maintainer.id);
  const skills = await ensureSkills(ctx, actor);
  const routineIds = await ensureRoutines(ctx, actor, instance, maintainer.id, project.id);
  const row: InstanceRow = {
    id: instance?.id ?? newId(),
    companyId: ctx.companyId,
    wikiId: ref.wikiId,
    managedAgentId: maintainer.id,
    managedProjectId: project.id,
    managedSkillIds: skills.map((s) => s.id),
    managedRoutineIds: routineIds,
    bootstrappedAt: instance?.bootstrappedAt ?? ctx.now,
    createdAt: instance?.createdAt ?? ctx.now,
    updatedAt: ctx.now,
  };
  const operation = operationInsert(ctx, actor, {
    wikiId: ref.wikiId,
    spaceId: files.space.id,
    operationType: "bootstrap",
    summary: files.writtenFiles.length ? `Wrote ${files.writtenFiles.join(", ")}` : "Nothing missing",
    details: { writtenFiles: files.writtenFiles, preservedFiles: files.preservedFiles, managedAgentId: maintainer.id, managedProjectId: project.id },
  });
  const { id: _id, companyId: _c, wikiId: _w, createdAt: _created, ...changes } = row;
  await ctx.batch([
    instance ? ctx.db.update(i).set(changes).where(eq(i.id, instance.id)) : ctx.db.insert(i).values(row),
    operation.statement,
    ctx.activity({
      action: "wiki.bootstrapped",
      entityType: "wiki",
      entityId: row.id,
      details: {
        wikiId: ref.wikiId,
        spaceSlug: DEFAULT_SPACE_SLUG,
        writtenFiles: files.writtenFiles,
        preservedFiles: files.preservedFiles,
        managedAgentId: maintainer.id,
        operationId: operation.row.id,
      },
    }),
  ]);
  return {
    status: "ready" as const,
    wikiId: ref.wikiId,
    space: spaceView(files.space),
    writtenFiles: files.writtenFiles,
    preservedFiles: files.preservedFiles,
    managedAgent: { id: maintainer.id, name: maintainer.name, status: maintainer.status },
    managedProject: project,
    managedSkills: skills,
    managedRoutineIds: routineIds,
  };
});

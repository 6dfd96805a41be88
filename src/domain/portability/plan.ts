// What importing a package into a company would do: every old id mapped to a new one (or, on a
// `skip` collision, to the existing entity), names made unique on `rename`, secret placeholders
// bound to the target's secrets, and what happens to each entity (create, skip, rename) for the
// preview. Pure: the target's names come from one read (loadTarget).
import { eq } from "drizzle-orm";
import { ReadBatch } from "../../db/read-batch";
import { schema, type Db } from "../../db/client";
import { newId } from "../../crypto/random";
import { HttpError, unprocessable } from "../errors";
import { validateAdapterConfig } from "../../adapters";
import { bindPlaceholders, placeholdersIn, type EntityAction, type EntityKind } from "./format";
import type { ParsedPackage } from "./parse";
import { KINDS } from "./kinds";
import { AGENT_NAME_MAX } from "./kinds/agents";
import { GOAL_TITLE_MAX } from "./kinds/goals";
import { PROJECT_NAME_MAX } from "./kinds/projects";
import { LABEL_NAME_MAX } from "./kinds/labels";
import { ROUTINE_TITLE_MAX } from "./kinds/routines";
import { skillName } from "./kinds/skills";

export type CollisionStrategy = "skip" | "rename";

export interface TargetSnapshot {
  agents: Array<{ id: string; name: string; urlKey: string }>;
  goals: Array<{ id: string; title: string }>;
  projects: Array<{ id: string; name: string; urlKey: string }>;
  labels: Array<{ id: string; name: string }>;
  routines: Array<{ id: string; title: string }>;
  skills: Array<{ id: string; key: string }>;
  secrets: Array<{ id: string; name: string }>;
}

export async function loadTarget(db: Db, companyId: string): Promise<TargetSnapshot> {
  const batch = new ReadBatch(db);
  const agents = batch.add(
    db
      .select({ id: schema.agents.id, name: schema.agents.name, urlKey: schema.agents.urlKey })
      .from(schema.agents)
      .where(eq(schema.agents.companyId, companyId)),
  );
  const goals = batch.add(db.select({ id: schema.goals.id, title: schema.goals.title }).from(schema.goals).where(eq(schema.goals.companyId, companyId)));
  const projects = batch.add(
    db
      .select({ id: schema.projects.id, name: schema.projects.name, urlKey: schema.projects.urlKey })
      .from(schema.projects)
      .where(eq(schema.projects.companyId, companyId)),
  );
  const labels = batch.add(db.select({ id: schema.labels.id, name: schema.labels.name }).from(schema.labels).where(eq(schema.labels.companyId, companyId)));
  const routines = batch.add(
    db.select({ id: schema.routines.id, title: schema.routines.title }).from(schema.routines).where(eq(schema.routines.companyId, companyId)),
  );
  const skills = batch.add(
    db.select({ id: schema.companySkills.id, key: schema.companySkills.key }).from(schema.companySkills).where(eq(schema.companySkills.companyId, companyId)),
  );
  const secrets = batch.add(
    db
      .select({ id: schema.companySecrets.id, name: schema.companySecrets.name })
      .from(schema.companySecrets)
      .where(eq(schema.companySecrets.companyId, companyId)),
  );
  await batch.run();
  return {
    agents: agents.value,
    goals: goals.value,
    projects: projects.value,
    labels: labels.value,
    routines: routines.value,
    skills: skills.value,
    secrets: secrets.value,
  };
}

export const EMPTY_TARGET: TargetSnapshot = { agents: [], goals: [], projects: [], labels: [], routines: [], skills: [], secrets: [] };

type Kind = "agent" | "goal" | "project" | "label" | "routine" | "skill";

/** One entity of the package and what the import does with it. */
export interface PlannedEntity {
  /** Its key in the package: an agent's or project's URL key (its file name), an issue's identifier, a skill's key, otherwise its id. */
  key: string;
  path: string;
  /** Its name (agents, projects, labels, skills) or title (goals, issues, routines). */
  name: string;
  /** `skip`: maps to the existing entity (existingId); `rename`: created as newName. */
  action: EntityAction;
  newName?: string;
  existingId?: string;
}

/** Names are kept within what the package format reads back (the kinds' schemas). */
const NAME_MAX: Record<Exclude<Kind, "skill">, number> = {
  agent: AGENT_NAME_MAX,
  goal: GOAL_TITLE_MAX,
  project: PROJECT_NAME_MAX,
  label: LABEL_NAME_MAX,
  routine: ROUTINE_TITLE_MAX,
};

export interface ImportPlan {
  /** Old id → new id (or the existing entity's id when skipped), per kind. */
  ids: Record<"agents" | "goals" | "projects" | "labels" | "issues" | "routines", Map<string, string>>;
  /** Final names of created entities (after `rename`), by old id (skills by key). */
  names: Map<string, string>;
  /** What is created (old ids / skill keys). */
  create: Record<"agents" | "goals" | "projects" | "labels" | "issues" | "routines" | "skills", Set<string>>;
  collisions: Array<{ kind: Kind; name: string; existingId: string | null; resolution: "skipped" | "renamed"; newName?: string }>;
  /** Every entity of the package with its action, per kind. */
  entities: Record<EntityKind, PlannedEntity[]>;
  secretBindings: Map<string, string>;
  unboundSecrets: string[];
  warnings: string[];
  counts: { create: Record<string, number>; skip: Record<string, number> };
}

/** A name not in `taken` (case-insensitive): `name`, else `name (2)`, `name (3)`, … shortened to stay within `max`. */
function freeName(name: string, taken: Set<string>, max: number): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
    const suffix = ` (${n})`;
    candidate = `${name.slice(0, max - suffix.length).trimEnd()}${suffix}`;
  }
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** A package file's name without its folder and extension (`agents/chief.md` → `chief`). */
const fileKey = (path: string) => path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, "");

export interface PlanOptions {
  collisionStrategy: CollisionStrategy;
  secretBindings?: Record<string, string>;
  /** Importing into a company made from the package (its company.md settings apply). */
  newCompany?: boolean;
}

export function planImport(pkg: ParsedPackage, target: TargetSnapshot, options: PlanOptions): ImportPlan {
  const plan: ImportPlan = {
    ids: { agents: new Map(), goals: new Map(), projects: new Map(), labels: new Map(), issues: new Map(), routines: new Map() },
    names: new Map(),
    create: { agents: new Set(), goals: new Set(), projects: new Set(), labels: new Set(), issues: new Set(), routines: new Set(), skills: new Set() },
    collisions: [],
    entities: { agents: [], goals: [], projects: [], labels: [], issues: [], routines: [], skills: [] },
    secretBindings: new Map(),
    unboundSecrets: [],
    warnings: [],
    counts: { create: {}, skip: {} },
  };
  const place = <T extends { id: string }>(
    kind: Exclude<Kind, "skill">,
    entities: PlannedEntity[],
    items: T[],
    describe: (item: T) => { name: string; key: string; path: string },
    existing: Array<{ id: string; name: string }>,
    ids: Map<string, string>,
    create: Set<string>,
  ) => {
    const taken = new Set(existing.map((e) => e.name.toLowerCase()));
    for (const item of items) {
      const entity = describe(item);
      const name = entity.name;
      const clash = existing.find((e) => e.name.toLowerCase() === name.toLowerCase());
      if (clash && options.collisionStrategy === "skip") {
        ids.set(item.id, clash.id);
        plan.collisions.push({ kind, name, existingId: clash.id, resolution: "skipped" });
        entities.push({ ...entity, action: "skip", existingId: clash.id });
        continue;
      }
      // Also renamed without a clash in the target: a second entity of the same name in the package.
      const finalName = freeName(name, taken, NAME_MAX[kind]);
      if (clash) plan.collisions.push({ kind, name, existingId: clash.id, resolution: "renamed", newName: finalName });
      entities.push(
        finalName === name ? { ...entity, action: "create" } : { ...entity, action: "rename", newName: finalName, ...(clash ? { existingId: clash.id } : {}) },
      );
      ids.set(item.id, newId());
      plan.names.set(item.id, finalName);
      create.add(item.id);
    }
  };
  const byFile = (name: string, path: string) => ({ name, key: fileKey(path), path });
  const byId = (name: string, id: string, path: string) => ({ name, key: id, path });
  const { entities } = plan;
  place("agent", entities.agents, pkg.agents, (a) => byFile(a.name, a.path), target.agents, plan.ids.agents, plan.create.agents);
  place(
    "goal",
    entities.goals,
    pkg.goals,
    (g) => byId(g.title, g.id, g.path),
    target.goals.map((g) => ({ id: g.id, name: g.title })),
    plan.ids.goals,
    plan.create.goals,
  );
  place("project", entities.projects, pkg.projects, (p) => byFile(p.name, p.path), target.projects, plan.ids.projects, plan.create.projects);
  place("label", entities.labels, pkg.labels, (l) => byId(l.name, l.id, "labels.json"), target.labels, plan.ids.labels, plan.create.labels);
  place(
    "routine",
    entities.routines,
    pkg.routines,
    (r) => byId(r.title, r.id, r.path),
    target.routines.map((r) => ({ id: r.id, name: r.title })),
    plan.ids.routines,
    plan.create.routines,
  );
  for (const issue of pkg.issues) {
    plan.ids.issues.set(issue.id, newId());
    plan.create.issues.add(issue.id);
    entities.issues.push({ key: issue.identifier ?? fileKey(issue.path), path: issue.path, name: issue.title, action: "create" });
  }
  for (const skill of pkg.skills) {
    const entity = { key: skill.key, path: `skills/${skill.key}/SKILL.md`, name: skillName(skill) };
    const existing = target.skills.find((s) => s.key === skill.key);
    if (existing) {
      // Skills are keyed: a `rename` cannot give two skills one key, so an existing key is kept either way.
      plan.collisions.push({ kind: "skill", name: skill.key, existingId: existing.id, resolution: "skipped" });
      entities.skills.push({ ...entity, action: "skip", existingId: existing.id });
      continue;
    }
    plan.create.skills.add(skill.key);
    entities.skills.push({ ...entity, action: "create" });
  }
  // Secret placeholders: bound by the caller (name → secret id or name), else by a target secret of the same name.
  const wanted = new Set<string>();
  for (const kind of KINDS) {
    const items: unknown = pkg[kind.key];
    if (kind.secretValues && Array.isArray(items)) for (const item of items) placeholdersIn(kind.secretValues(item), wanted);
  }
  for (const name of [...wanted].sort()) {
    const given = options.secretBindings?.[name];
    const secret = given ? target.secrets.find((s) => s.id === given || s.name === given) : target.secrets.find((s) => s.name === name);
    if (given && !secret) throw unprocessable(`secretBindings.${name} names no secret of this company`, { path: `secretBindings.${name}` });
    if (secret) plan.secretBindings.set(name, secret.id);
    else plan.unboundSecrets.push(name);
  }
  // Adapter configs must be valid for their adapter (checked with placeholders standing in for bound secrets).
  const stand = new Map([...wanted].map((name) => [name, "00000000-0000-4000-8000-000000000000"]));
  for (const agent of pkg.agents.filter((a) => plan.create.agents.has(a.id))) {
    try {
      validateAdapterConfig(agent.adapterType, (bindPlaceholders(agent.adapterConfig, stand, new Set()) as Record<string, unknown>) ?? {}, { creating: true });
    } catch (err) {
      if (err instanceof HttpError) throw unprocessable(`${agent.path}: ${err.message}`, { path: agent.path, details: err.details });
      throw err;
    }
  }
  if (pkg.company && !options.newCompany) plan.warnings.push("company.md: a company-scoped import does not change the company's own settings");
  for (const [kind, set] of Object.entries(plan.create)) plan.counts.create[kind] = set.size;
  for (const c of plan.collisions.filter((c) => c.resolution === "skipped")) plan.counts.skip[c.kind] = (plan.counts.skip[c.kind] ?? 0) + 1;
  return plan;
}

/** The plan as the preview answers it. */
export function planView(plan: ImportPlan) {
  return {
    create: plan.counts.create,
    skip: plan.counts.skip,
    collisions: plan.collisions,
    unboundSecrets: plan.unboundSecrets,
    secretBindings: Object.fromEntries(plan.secretBindings),
    warnings: plan.warnings,
  };
}

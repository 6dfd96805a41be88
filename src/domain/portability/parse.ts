// Reading a company package: the manifest's format and version, every file's frontmatter checked
// by a schema, and every reference between files resolved inside the package. Problems are 422s
// naming the file (`details.path`), before anything is written.
//
// Every limit here is at least the limit of the route that writes the same field (or, where no
// route bounds it, large enough for what the service stores): whatever an export writes, an
// import reads. Collections only the package's own size bounds get generous counts.
import { z } from "zod";
import { unprocessable } from "../errors";
import { DOCUMENT_KEY_PATTERN } from "../documents/keys";
import { GOAL_LEVELS, GOAL_STATUSES } from "../../db/schema/goals";
import { PROJECT_STATUSES, WORKSPACE_SOURCE_TYPES } from "../../db/schema/projects";
import { ISSUE_PRIORITIES, ISSUE_STATUSES } from "../../db/schema/issues";
import { CATCH_UP_POLICIES, CONCURRENCY_POLICIES, ROUTINE_STATUSES, SIGNING_MODES, TRIGGER_KINDS } from "../../db/schema/routines";
import { MAX_PACKAGE_BYTES, PACKAGE_FORMAT, PACKAGE_VERSION, readJson, readMarkdown, type Include, type Manifest, type PackageFiles } from "./format";

const id = z.string().min(1).max(200);
const nullableId = id.nullish().transform((v) => v ?? null);
const text = (max: number) => z.string().max(max).nullish().transform((v) => v ?? null);
const record = z.record(z.string(), z.unknown());
/** Lists whose length no route bounds (labels of a company, comments of an issue, …). */
const MANY = 100_000;

const CompanySchema = z.object({
  name: z.string().trim().min(1).max(200),
  brandColor: text(20),
  budgetMonthlyCents: z.number().int().min(0).nullish(),
  requireBoardApprovalForNewAgents: z.boolean().nullish(),
});
const AgentSchema = z.object({
  id,
  name: z.string().trim().min(1).max(200),
  role: z.string().min(1).max(100),
  title: text(200),
  icon: text(100),
  reportsTo: nullableId,
  adapterType: z.string().min(1).max(100),
  adapterConfig: record.nullish().transform((v) => v ?? {}),
  runtimeConfig: record.nullish().transform((v) => v ?? {}),
  budgetMonthlyCents: z.number().int().min(0).nullish().transform((v) => v ?? 0),
  // Skill keys come from SKILL.md frontmatter or the source (github/<owner>/<repo>/<slug>): longer than a slug.
  desiredSkills: z.array(z.string().max(2000)).max(1000).nullish().transform((v) => v ?? []),
  metadata: record.nullish().transform((v) => v ?? null),
});
const GoalSchema = z.object({
  id,
  title: z.string().trim().min(1).max(500),
  level: z.enum(GOAL_LEVELS),
  status: z.enum(GOAL_STATUSES),
  parentId: nullableId,
  ownerAgentId: nullableId,
  isCompanyDefault: z.boolean().nullish().transform((v) => v ?? false),
});
const WorkspaceSchema = z.object({
  name: z.string().min(1).max(200),
  sourceType: z.enum(WORKSPACE_SOURCE_TYPES),
  cwd: text(4000),
  repoUrl: text(2000),
  repoRef: text(500),
  defaultRef: text(500),
  setupCommand: text(4000),
  cleanupCommand: text(4000),
  isPrimary: z.boolean().nullish().transform((v) => v ?? false),
});
const ProjectSchema = z.object({
  id,
  name: z.string().trim().min(1).max(200),
  status: z.enum(PROJECT_STATUSES),
  goalIds: z.array(id).max(1000).nullish().transform((v) => v ?? []),
  leadAgentId: nullableId,
  targetDate: text(1000),
  color: text(20),
  env: record.nullish().transform((v) => v ?? null),
  workspaces: z.array(WorkspaceSchema).max(1000).nullish().transform((v) => v ?? []),
});
const LabelSchema = z.object({ id, name: z.string().trim().min(1).max(100), color: text(20) });
const IssueSchema = z.object({
  id,
  // Informational (the target numbers issues itself); prefixes from before the 10-character rule may be long.
  identifier: z.string().nullish(),
  title: z.string().trim().min(1).max(500),
  status: z.enum(ISSUE_STATUSES),
  priority: z.enum(ISSUE_PRIORITIES),
  parentId: nullableId,
  projectId: nullableId,
  goalId: nullableId,
  assigneeAgentId: nullableId,
  blockedByIssueIds: z.array(id).max(MANY).nullish().transform((v) => v ?? []),
  labelIds: z.array(id).max(MANY).nullish().transform((v) => v ?? []),
  originKind: z.string().max(100).nullish(),
  originId: nullableId,
});
const CommentSchema = z.object({ authorAgentId: nullableId, authorUserId: nullableId, body: z.string().min(1).max(100_000), createdAt: z.string().max(40).nullish() });
// Keys of 64 characters get `-2`, `-3`, … when an agent's write is redirected from a locked document.
const DocumentSchema = z.object({ key: z.string().max(200).regex(DOCUMENT_KEY_PATTERN), title: text(300), format: z.string().max(20).nullish() });
const TriggerSchema = z.object({
  kind: z.enum(TRIGGER_KINDS),
  label: text(200),
  enabled: z.boolean(),
  cronExpression: text(200),
  timezone: text(100),
  signingMode: z.enum(SIGNING_MODES).nullish(),
  replayWindowSec: z.number().int().min(30).max(86_400).nullish(),
});
const RoutineSchema = z.object({
  id,
  title: z.string().trim().min(1).max(500),
  assigneeAgentId: nullableId,
  projectId: nullableId,
  goalId: nullableId,
  parentIssueId: nullableId,
  priority: z.enum(ISSUE_PRIORITIES),
  status: z.enum(ROUTINE_STATUSES),
  concurrencyPolicy: z.enum(CONCURRENCY_POLICIES),
  catchUpPolicy: z.enum(CATCH_UP_POLICIES),
  variables: z.array(z.object({ name: z.string(), label: z.string().nullish(), type: z.string(), required: z.boolean(), defaultValue: z.union([z.string(), z.number(), z.boolean()]).nullish() })).max(50).nullish().transform((v) => v ?? []),
  triggers: z.array(TriggerSchema).max(1000).nullish().transform((v) => v ?? []),
});

export type PkgAgent = z.infer<typeof AgentSchema> & { path: string; capabilities: string | null };
export type PkgGoal = z.infer<typeof GoalSchema> & { path: string; description: string | null };
export type PkgProject = z.infer<typeof ProjectSchema> & { path: string; description: string | null };
export type PkgLabel = z.infer<typeof LabelSchema>;
export type PkgIssue = z.infer<typeof IssueSchema> & {
  path: string;
  description: string | null;
  comments: Array<z.infer<typeof CommentSchema>>;
  documents: Array<z.infer<typeof DocumentSchema> & { body: string }>;
};
export type PkgRoutine = z.infer<typeof RoutineSchema> & { path: string; description: string | null };

export interface ParsedPackage {
  manifest: Manifest;
  company: (z.infer<typeof CompanySchema> & { description: string | null }) | null;
  agents: PkgAgent[];
  goals: PkgGoal[];
  projects: PkgProject[];
  labels: PkgLabel[];
  issues: PkgIssue[];
  routines: PkgRoutine[];
  skills: Array<{ key: string; files: Record<string, string> }>;
}

const MAX_TEXT = 100_000;
const MAX_DOCUMENT = 512 * 1024;

/** A file's body within `max` characters (422 naming the file otherwise). */
function bounded(body: string | null, path: string, max = MAX_TEXT): string | null {
  if (body && body.length > max) throw unprocessable(`${path}: the text is longer than ${max} characters`, { path, length: body.length });
  return body;
}

function check<T extends z.ZodType>(schema: T, value: unknown, path: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const first = result.error.issues[0];
    throw unprocessable(`${path}: ${first.path.join(".") || "file"} ${first.message}`, { path, issues: result.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) });
  }
  return result.data;
}

/**
 * Parses and validates a package (422 naming the file on any problem). Kinds the import's `include`
 * leaves out are not in `files`; references to them are dropped rather than refused.
 */
export function parsePackage(files: PackageFiles, include: Partial<Include> = {}): ParsedPackage {
  const total = Object.entries(files).reduce((n, [p, t]) => n + p.length + (typeof t === "string" ? t.length : 0), 0);
  if (total > MAX_PACKAGE_BYTES) throw unprocessable(`The package is larger than ${MAX_PACKAGE_BYTES} bytes`, { path: "", totalBytes: total });
  for (const [path, content] of Object.entries(files)) {
    if (typeof content !== "string") throw unprocessable(`${path}: file content must be text`, { path });
    if (path.startsWith("/") || path.split("/").some((part) => part === ".." || part === "")) throw unprocessable(`${path}: invalid path`, { path });
  }
  if (files["manifest.json"] === undefined) throw unprocessable("manifest.json is missing", { path: "manifest.json" });
  const manifest = readJson<Manifest>("manifest.json", files["manifest.json"]);
  if (manifest?.format !== PACKAGE_FORMAT) throw unprocessable(`manifest.json: format must be "${PACKAGE_FORMAT}"`, { path: "manifest.json" });
  if (manifest.version !== PACKAGE_VERSION) throw unprocessable(`manifest.json: version ${manifest.version} is not supported (this service reads version ${PACKAGE_VERSION})`, { path: "manifest.json" });

  const md = (path: string) => readMarkdown(path, files[path]);
  const under = (dir: string, ext: string) => Object.keys(files).filter((p) => p.startsWith(`${dir}/`) && p.endsWith(ext) && p.split("/").length === 2).sort();

  const company = files["company.md"] !== undefined ? (() => { const { fields, body } = md("company.md"); return { ...check(CompanySchema, fields, "company.md"), description: body }; })() : null;
  const agents = under("agents", ".md").map((path) => { const { fields, body } = md(path); return { ...check(AgentSchema, fields, path), path, capabilities: bounded(body, path) }; });
  const goals = under("goals", ".md").map((path) => { const { fields, body } = md(path); return { ...check(GoalSchema, fields, path), path, description: bounded(body, path) }; });
  const projects = under("projects", ".md").map((path) => { const { fields, body } = md(path); return { ...check(ProjectSchema, fields, path), path, description: bounded(body, path) }; });
  const labels = files["labels.json"] !== undefined ? check(z.array(LabelSchema).max(MANY), readJson("labels.json", files["labels.json"]), "labels.json") : [];
  const issues = under("issues", ".md").map((path): PkgIssue => {
    const { fields, body } = md(path);
    const base = path.slice(0, -3);
    const commentsPath = `${base}/comments.json`;
    const comments = files[commentsPath] !== undefined ? check(z.array(CommentSchema).max(MANY), readJson(commentsPath, files[commentsPath]), commentsPath) : [];
    const documents = Object.keys(files)
      .filter((p) => p.startsWith(`${base}/documents/`) && p.endsWith(".md"))
      .sort()
      .map((p) => { const doc = md(p); return { ...check(DocumentSchema, doc.fields, p), body: bounded(doc.body, p, MAX_DOCUMENT) ?? "" }; });
    const keys = new Set<string>();
    for (const doc of documents) {
      if (keys.has(doc.key)) throw unprocessable(`${base}/documents: two documents have the key ${doc.key}`, { path: `${base}/documents` });
      keys.add(doc.key);
    }
    return { ...check(IssueSchema, fields, path), path, description: bounded(body, path), comments, documents };
  });
  const routines = under("routines", ".md").map((path) => { const { fields, body } = md(path); return { ...check(RoutineSchema, fields, path), path, description: bounded(body, path) }; });
  // A skill is the folder holding a SKILL.md (its key is the folder path under skills/).
  const skillDirs = Object.keys(files).filter((p) => p.startsWith("skills/") && p.endsWith("/SKILL.md")).map((p) => p.slice("skills/".length, -"/SKILL.md".length));
  const skills = skillDirs.map((key) => ({
    key,
    files: Object.fromEntries(Object.entries(files).filter(([p]) => p.startsWith(`skills/${key}/`)).map(([p, t]) => [p.slice(`skills/${key}/`.length), t])),
  }));
  const orphan = Object.keys(files).find((p) => p.startsWith("skills/") && !skillDirs.some((d) => p.startsWith(`skills/${d}/`)));
  if (orphan) throw unprocessable(`${orphan}: not inside a skill folder (no SKILL.md)`, { path: orphan });

  const parsed: ParsedPackage = { manifest, company, agents, goals, projects, labels, issues, routines, skills };
  dropReferencesToLeftOut(parsed, include);
  checkReferences(parsed);
  return parsed;
}

/** References to kinds the import leaves out become null (or empty lists). */
function dropReferencesToLeftOut(p: ParsedPackage, include: Partial<Include>) {
  const out = (kind: "agents" | "goals" | "projects" | "labels" | "issues") => include[kind] === false;
  for (const g of p.goals) if (out("agents")) g.ownerAgentId = null;
  for (const pr of p.projects) {
    if (out("agents")) pr.leadAgentId = null;
    if (out("goals")) pr.goalIds = [];
  }
  for (const i of p.issues) {
    if (out("agents")) i.assigneeAgentId = null;
    if (out("goals")) i.goalId = null;
    if (out("projects")) i.projectId = null;
    if (out("labels")) i.labelIds = [];
  }
  for (const r of p.routines) {
    if (out("agents")) r.assigneeAgentId = null;
    if (out("goals")) r.goalId = null;
    if (out("projects")) r.projectId = null;
    if (out("issues")) r.parentIssueId = null;
  }
}

/** Every id a file names must be in the package (or be null). */
function checkReferences(p: ParsedPackage) {
  const unique = (kind: string, items: Array<{ id: string; path?: string }>) => {
    const seen = new Set<string>();
    for (const item of items) {
      if (seen.has(item.id)) throw unprocessable(`${item.path ?? kind}: ${kind} id ${item.id} appears twice`, { path: item.path ?? kind });
      seen.add(item.id);
    }
    return seen;
  };
  const agents = unique("agent", p.agents);
  const goals = unique("goal", p.goals);
  const projects = unique("project", p.projects);
  const labels = unique("label", p.labels);
  const issues = unique("issue", p.issues);
  unique("routine", p.routines);
  const ref = (path: string, field: string, value: string | null | undefined, set: Set<string>, what: string) => {
    if (value && !set.has(value)) throw unprocessable(`${path}: ${field} names ${what} ${value}, which is not in the package`, { path, field, id: value });
  };
  for (const a of p.agents) ref(a.path, "reportsTo", a.reportsTo, agents, "agent");
  for (const g of p.goals) {
    ref(g.path, "parentId", g.parentId, goals, "goal");
    ref(g.path, "ownerAgentId", g.ownerAgentId, agents, "agent");
  }
  for (const pr of p.projects) {
    pr.goalIds.forEach((gid) => ref(pr.path, "goalIds", gid, goals, "goal"));
    ref(pr.path, "leadAgentId", pr.leadAgentId, agents, "agent");
  }
  for (const i of p.issues) {
    ref(i.path, "parentId", i.parentId, issues, "issue");
    ref(i.path, "projectId", i.projectId, projects, "project");
    ref(i.path, "goalId", i.goalId, goals, "goal");
    ref(i.path, "assigneeAgentId", i.assigneeAgentId, agents, "agent");
    i.blockedByIssueIds.forEach((b) => ref(i.path, "blockedByIssueIds", b, issues, "issue"));
    i.labelIds.forEach((l) => ref(i.path, "labelIds", l, labels, "label"));
  }
  for (const r of p.routines) {
    ref(r.path, "assigneeAgentId", r.assigneeAgentId, agents, "agent");
    ref(r.path, "projectId", r.projectId, projects, "project");
    ref(r.path, "goalId", r.goalId, goals, "goal");
    ref(r.path, "parentIssueId", r.parentIssueId, issues, "issue");
  }
  // Parent chains must not loop (goals, agents, issues).
  const acyclic = (kind: string, items: Array<{ id: string; path: string }>, parentOf: (id: string) => string | null) => {
    for (const item of items) {
      const seen = new Set<string>();
      for (let at: string | null = item.id; at; at = parentOf(at)) {
        if (seen.has(at)) throw unprocessable(`${item.path}: the ${kind} hierarchy has a cycle`, { path: item.path });
        seen.add(at);
      }
    }
  };
  const agentParent = new Map(p.agents.map((a) => [a.id, a.reportsTo]));
  const goalParent = new Map(p.goals.map((g) => [g.id, g.parentId]));
  const issueParent = new Map(p.issues.map((i) => [i.id, i.parentId]));
  acyclic("agent", p.agents, (x) => agentParent.get(x) ?? null);
  acyclic("goal", p.goals, (x) => goalParent.get(x) ?? null);
  acyclic("issue", p.issues, (x) => issueParent.get(x) ?? null);
}

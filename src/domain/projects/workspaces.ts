// Project workspace rules: defaults, validation (422 with the reasons) and row building.
import type { WorkspaceRow } from "./view";
import { unprocessable } from "../errors";
import type { DESIRED_STATES } from "../../db/schema/projects";

export interface WorkspaceFields {
  name?: string;
  sourceType?: WorkspaceRow["sourceType"];
  cwd?: string | null;
  repoUrl?: string | null;
  repoRef?: string | null;
  defaultRef?: string | null;
  visibility?: string;
  setupCommand?: string | null;
  cleanupCommand?: string | null;
  remoteProvider?: string | null;
  remoteWorkspaceRef?: string | null;
  sharedWorkspaceKey?: string | null;
  metadata?: Record<string, unknown> | null;
  runtimeConfig?: Record<string, unknown> | null;
  isPrimary?: boolean;
  desiredState?: (typeof DESIRED_STATES)[number];
}

const blank = (v: string | null | undefined) => !v?.trim();

/** Reasons a workspace is unusable; empty when valid. */
export function workspaceProblems(w: Pick<WorkspaceRow, "sourceType" | "cwd" | "repoUrl" | "remoteWorkspaceRef">): string[] {
  const problems: string[] = [];
  if (w.sourceType === "remote_managed") {
    if (blank(w.remoteWorkspaceRef) && blank(w.repoUrl)) problems.push("a remote_managed workspace needs remoteWorkspaceRef or repoUrl");
  } else if (blank(w.cwd) && blank(w.repoUrl)) {
    problems.push("a workspace needs at least one of cwd or repoUrl");
  }
  return problems;
}

export function assertValidWorkspace(w: Parameters<typeof workspaceProblems>[0], what = "workspace") {
  const problems = workspaceProblems(w);
  if (problems.length) throw unprocessable(`Invalid ${what}: ${problems.join("; ")}`, { problems });
}

function defaultName(f: WorkspaceFields) {
  const source = f.repoUrl?.trim() || f.cwd?.trim() || f.remoteWorkspaceRef?.trim();
  if (!source) return "Workspace";
  const last = source
    .replace(/\.git$/, "")
    .split(/[\\/:]/)
    .filter(Boolean)
    .pop();
  return (last || "Workspace").slice(0, 200);
}

/** A new row from create fields (validated); `isPrimary` is decided by the caller. */
export function newWorkspaceRow(args: {
  id: string;
  companyId: string;
  projectId: string;
  fields: WorkspaceFields;
  isPrimary: boolean;
  now: string;
}): WorkspaceRow {
  const f = args.fields;
  const row: WorkspaceRow = {
    id: args.id,
    companyId: args.companyId,
    projectId: args.projectId,
    name: f.name ?? defaultName(f),
    sourceType: f.sourceType ?? (f.repoUrl?.trim() ? "git_repo" : "local_path"),
    cwd: f.cwd ?? null,
    repoUrl: f.repoUrl ?? null,
    repoRef: f.repoRef ?? null,
    defaultRef: f.defaultRef ?? null,
    visibility: f.visibility ?? "default",
    setupCommand: f.setupCommand ?? null,
    cleanupCommand: f.cleanupCommand ?? null,
    remoteProvider: f.remoteProvider ?? null,
    remoteWorkspaceRef: f.remoteWorkspaceRef ?? null,
    sharedWorkspaceKey: f.sharedWorkspaceKey ?? null,
    metadata: f.metadata ?? null,
    runtimeConfig: f.runtimeConfig ?? null,
    isPrimary: args.isPrimary,
    desiredState: f.desiredState ?? "stopped",
    createdAt: args.now,
    updatedAt: args.now,
  };
  assertValidWorkspace(row);
  return row;
}

/** Configured runtime services of a workspace runtimeConfig (`services: [{ name, command, port? }]`). */
export function configuredServices(runtimeConfig: Record<string, unknown> | null | undefined) {
  const services = runtimeConfig?.services;
  if (!Array.isArray(services)) return [];
  return services.filter(
    (s): s is { name: string; command: string; port?: number } =>
      !!s && typeof s === "object" && typeof (s as Record<string, unknown>).name === "string" && typeof (s as Record<string, unknown>).command === "string",
  );
}

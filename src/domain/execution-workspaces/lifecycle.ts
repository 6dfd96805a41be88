// Execution workspace status transitions and close readiness, in one place.
//   open    → closing  (runtime services stopped, environment leases released)
//   open    → closed   (only when ready: nothing below blocks)
//   closing → open     (reopened)
//   closing → closed   (only when ready)
//   closed  → —        (final)
import { and, eq, gt, isNotNull, isNull, notInArray, or } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import type { ExecutionWorkspaceRow } from "./view";

type Status = ExecutionWorkspaceRow["status"];

export const EXECUTION_WORKSPACE_TRANSITIONS: Record<Status, Status[]> = {
  open: ["closing", "closed"],
  closing: ["open", "closed"],
  closed: [],
};

export const canMove = (from: Status, to: Status) => from === to || EXECUTION_WORKSPACE_TRANSITIONS[from].includes(to);

export type CloseBlocker =
  | { kind: "checked_out_issue"; issueId: string; identifier: string; status: string; message: string }
  | { kind: "running_runtime_service"; serviceName: string; message: string }
  | { kind: "active_lease"; leaseId: string; environmentId: string; message: string };

/** What keeps the workspace from closing: open checked-out issues linked to it, running services, live leases. */
export async function closeBlockers(db: Db, row: ExecutionWorkspaceRow, now: string): Promise<CloseBlocker[]> {
  const i = schema.issues;
  const l = schema.environmentLeases;
  const [issues, leases] = await db.batch([
    db
      .select({ id: i.id, identifier: i.identifier, status: i.status })
      .from(i)
      .where(and(eq(i.companyId, row.companyId), eq(i.executionWorkspaceId, row.id), isNotNull(i.checkoutRunId), notInArray(i.status, ["done", "cancelled"]))),
    db
      .select({ id: l.id, environmentId: l.environmentId })
      .from(l)
      .where(and(eq(l.executionWorkspaceId, row.id), eq(l.status, "active"), or(isNull(l.expiresAt), gt(l.expiresAt, now)))),
  ]);
  return [
    ...issues.map((x) => ({
      kind: "checked_out_issue" as const,
      issueId: x.id,
      identifier: x.identifier,
      status: x.status,
      message: `Issue ${x.identifier} is checked out in this workspace`,
    })),
    ...(row.runtimeServices ?? [])
      .filter((s) => s.status === "running")
      .map((s) => ({ kind: "running_runtime_service" as const, serviceName: s.name, message: `Runtime service ${s.name} is running` })),
    ...leases.map((x) => ({ kind: "active_lease" as const, leaseId: x.id, environmentId: x.environmentId, message: `Environment lease ${x.id} is active` })),
  ];
}

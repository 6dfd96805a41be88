// How the inbox arranges what waits on the board (pure; lib/inbox.ts loads it).
import type { components } from "../../client";

export type Approval = components["schemas"]["Approval"];
export type BudgetIncident = components["schemas"]["BudgetIncident"];

/**
 * The open incidents of one budget policy: crossing 100 % also crossed the warning threshold, so a
 * hard stop usually comes with a soft incident; the board decides them together.
 */
export interface IncidentGroup {
  policyId: string;
  /** The hard stop if there is one, else the latest warning. */
  primary: BudgetIncident;
  incidents: BudgetIncident[];
}

export function groupIncidents(incidents: BudgetIncident[]): IncidentGroup[] {
  const groups = new Map<string, BudgetIncident[]>();
  for (const incident of incidents) groups.set(incident.policyId, [...(groups.get(incident.policyId) ?? []), incident]);
  return [...groups].map(([policyId, list]) => {
    const byWeight = [...list].sort((a, b) => (a.kind === b.kind ? b.createdAt.localeCompare(a.createdAt) : a.kind === "hard" ? -1 : 1));
    return { policyId, primary: byWeight[0], incidents: list };
  });
}

/** The approvals to list on their own: an incident's override approval is decided with it. */
export function standaloneApprovals(approvals: Approval[], incidents: BudgetIncident[]): Approval[] {
  const withIncident = new Set(incidents.map((i) => i.approvalId).filter(Boolean));
  return approvals.filter((a) => !withIncident.has(a.id));
}

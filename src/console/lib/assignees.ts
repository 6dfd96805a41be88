// Who an issue is assigned to: one of the company's agents or one of its people. A picker's value
// is `agent:<id>`, `user:<id>` or "" (unassigned); choosing one sets that assignee and clears the
// other kind, so an issue never shows two.
import { agentName, agents } from "./agents";
import { people } from "./people";
import { session } from "./session";

type Option = { value: string; label: string };

export interface Assigned {
  assigneeAgentId: string | null;
  assigneeUserId: string | null;
}

export const assigneeChoice = (issue: Partial<Assigned>): string =>
  issue.assigneeAgentId ? `agent:${issue.assigneeAgentId}` : issue.assigneeUserId ? `user:${issue.assigneeUserId}` : "";

/** The body fields for a picker's value. */
export function assigneeFields(choice: string): Assigned {
  if (choice.startsWith("agent:")) return { assigneeAgentId: choice.slice(6), assigneeUserId: null };
  if (choice.startsWith("user:")) return { assigneeAgentId: null, assigneeUserId: choice.slice(5) };
  return { assigneeAgentId: null, assigneeUserId: null };
}

const isMe = (userId: string) => userId === session.value?.user.id;

/** A person's name ("… (you)" for the signed-in user). */
export function personName(userId: string): string {
  const name = people.value?.list.find((p) => p.id === userId)?.name ?? (isMe(userId) ? session.value?.user.name : undefined) ?? "A board member";
  return isMe(userId) ? `${name} (you)` : name;
}

export function assigneeName(issue: Partial<Assigned>): string {
  if (issue.assigneeAgentId) return agentName(issue.assigneeAgentId);
  if (issue.assigneeUserId) return personName(issue.assigneeUserId);
  return "Unassigned";
}

/** The picker's choices: unassigned, then the agents and the people as two groups. */
export function assigneeOptions(companyId: string, current: string): { options: Option[]; groups: Array<{ label: string; options: Option[] }> } {
  const ofCompany = <T>(shared: { companyId: string; list: T[] } | undefined) => (shared?.companyId === companyId ? shared.list : []);
  const agentOptions = ofCompany(agents.value).map((a) => ({ value: `agent:${a.id}`, label: a.name }));
  const personOptions = ofCompany(people.value).map((p) => ({ value: `user:${p.id}`, label: personName(p.id) }));
  // The current assignee stays choosable while the lists load (or when it is not listed).
  const listed = [...agentOptions, ...personOptions].some((o) => o.value === current);
  const extra = current && !listed ? [{ value: current, label: assigneeName(assigneeFields(current)) }] : [];
  return {
    options: [{ value: "", label: "Unassigned" }, ...extra],
    groups: [
      { label: "Agents", options: agentOptions },
      { label: "People", options: personOptions },
    ],
  };
}

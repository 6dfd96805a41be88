// Issues as rows: identifier and title (opening the issue), status, priority, the assignee (unless
// the list is of one person's issues) and when it last changed. The issues list and "Assigned to
// you" show it.
import type { Schemas } from "../lib/api";
import { assigneeName } from "../lib/assignees";
import { type Company, companyPath } from "../lib/companies";
import { ago } from "../lib/format";
import { PriorityBadge, StatusBadge } from "./badges";

export function IssueList({ issues, company, assignee = true }: { issues: Array<Schemas["Issue"]>; company: Company; assignee?: boolean }) {
  return (
    <ul class="rows issue-list">
      {issues.map((issue) => (
        <li key={issue.id}>
          <a href={companyPath(company, `issues/${issue.identifier}`)}>
            <span class="identifier">{issue.identifier}</span> {issue.title}
          </a>{" "}
          <StatusBadge status={issue.status} /> <PriorityBadge priority={issue.priority} />{" "}
          <span class="meta">
            {assignee ? `${assigneeName(issue)} · ` : ""}updated {ago(issue.updatedAt)}
          </span>
        </li>
      ))}
    </ul>
  );
}

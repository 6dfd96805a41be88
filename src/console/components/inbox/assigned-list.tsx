// "Assigned to you": the open issues assigned to the signed-in member, newest change first, each
// opening its page (where it is worked on, reassigned or closed).
import type { AssignedIssue } from "../../lib/inbox";
import { type Company, companyPath } from "../../lib/companies";
import { ago, when } from "../../lib/format";
import { PriorityBadge, StatusBadge } from "../badges";

export function AssignedList({ issues, company }: { issues: AssignedIssue[]; company: Company }) {
  const newestFirst = [...issues].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  return (
    <ul class="rows">
      {newestFirst.map((issue) => (
        <li key={issue.id}>
          <a href={companyPath(company, `issues/${issue.identifier}`)}>
            <span class="identifier">{issue.identifier}</span> {issue.title}
          </a>{" "}
          <StatusBadge status={issue.status} /> <PriorityBadge priority={issue.priority} />{" "}
          <span class="meta">
            updated{" "}
            <time dateTime={issue.updatedAt} title={when(issue.updatedAt)}>
              {ago(issue.updatedAt)}
            </time>
          </span>
        </li>
      ))}
    </ul>
  );
}

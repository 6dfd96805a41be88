// One activity entry: what happened, to what (linked when the console has a page for it), by whom
// and when.
import { agentName } from "../lib/agents";
import type { Schemas } from "../lib/api";
import { type Company, companyPath } from "../lib/companies";
import { label } from "../lib/enums";
import { ago, when } from "../lib/format";

type Entry = Schemas["ActivityRecord"];

/** The console page of an activity entry's subject, if there is one. */
function subjectLink(entry: Entry, company: Company): { href: string; text: string } | null {
  const details = entry.details ?? {};
  const text = (key: string) => (typeof details[key] === "string" ? (details[key] as string) : null);
  switch (entry.entityType) {
    case "issue":
      return { href: companyPath(company, `issues/${text("identifier") ?? entry.entityId}`), text: text("identifier") ?? "issue" };
    case "agent":
      return { href: companyPath(company, `agents/${entry.entityId}`), text: text("name") ?? agentName(entry.entityId) };
    case "project":
      return { href: companyPath(company, `projects/${entry.entityId}`), text: text("name") ?? "project" };
    case "goal":
      return { href: companyPath(company, `goals/${entry.entityId}`), text: text("title") ?? "goal" };
    case "routine":
      return { href: companyPath(company, `routines/${entry.entityId}`), text: text("title") ?? "routine" };
    case "webhook":
      return { href: companyPath(company, `settings/webhooks/${entry.entityId}`), text: "webhook" };
    default:
      return null;
  }
}

export function ActivityRow({ entry, company }: { entry: Entry; company: Company }) {
  const actor = entry.actorType === "agent" ? agentName(entry.actorId) : entry.actorType === "user" ? "the board" : "the system";
  const subject = subjectLink(entry, company);
  return (
    <li>
      {label(entry.action)}
      {subject && (
        <>
          {" "}
          <a href={subject.href}>{subject.text}</a>
        </>
      )}{" "}
      <span class="meta">
        by {actor} ·{" "}
        <time dateTime={entry.createdAt} title={when(entry.createdAt)}>
          {ago(entry.createdAt)}
        </time>
      </span>
    </li>
  );
}

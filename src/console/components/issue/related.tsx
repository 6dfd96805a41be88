// Issues related to this one (sub-issues, blockers, what it blocks): identifier, title and status.
import type { Schemas } from "../../lib/api";
import { StatusBadge } from "../badges";

type IssueSummary = NonNullable<Schemas["IssueSummary"]>;

export function Related({ title, issues, href, empty }: { title: string; issues: IssueSummary[]; href: (s: IssueSummary) => string; empty?: string }) {
  const id = `related-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {issues.length === 0 ? (
        <p class="empty">{empty}</p>
      ) : (
        <ul class="rows">
          {issues.map((s) => (
            <li key={s.id}>
              <a href={href(s)}>
                <span class="identifier">{s.identifier}</span> {s.title}
              </a>{" "}
              <StatusBadge status={s.status} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

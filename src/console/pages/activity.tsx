// The company's activity, newest first: what happened, to what, by whom and when, filtered by kind
// of subject and by agent (both in the URL). The API answers the whole list at once, so the page
// shows it a hundred entries at a time. Follows every event.
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso/router";
import { ActivityRow } from "../components/activity-row";
import { SelectField } from "../components/fields";
import { Async } from "../components/states";
import { agents } from "../lib/agents";
import { api, call } from "../lib/api";
import { label } from "../lib/enums";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

const PAGE = 100;
const SUBJECTS = [
  "issue",
  "agent",
  "approval",
  "project",
  "goal",
  "routine",
  "heartbeat_run",
  "budget_incident",
  "company",
  "company_member",
  "invite",
  "join_request",
  "secret",
  "webhook",
  "skill",
  "cost_event",
  "asset",
];

export default function ActivityPage({ company, query }: CompanyPageProps) {
  useTitle("Activity");
  const { route, path } = useLocation();
  const filters = { entityType: query.entityType || undefined, agentId: query.agentId || undefined };
  const [shown, setShown] = useState(PAGE);
  const activity = useResource(
    async () => call(api.GET("/api/companies/{companyId}/activity", { params: { path: { companyId: company.id }, query: filters } })),
    [company.id, filters.entityType, filters.agentId],
    { types: ["*"] },
  );
  const setQuery = (changes: Record<string, string>) => {
    const next = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...query, ...changes })) if (v) next.set(k, v);
    const search = next.toString();
    setShown(PAGE);
    route(`${path}${search ? `?${search}` : ""}`, true);
  };
  const subjects = filters.entityType && !SUBJECTS.includes(filters.entityType) ? [...SUBJECTS, filters.entityType] : SUBJECTS;
  return (
    <>
      <h1 tabIndex={-1}>Activity</h1>
      <form class="filters" aria-label="Filter activity" onSubmit={(e) => e.preventDefault()}>
        <SelectField
          label="Subject"
          value={filters.entityType ?? ""}
          options={[{ value: "", label: "Everything" }, ...subjects.map((s) => ({ value: s, label: label(s) }))]}
          onChange={(e) => setQuery({ entityType: e.currentTarget.value })}
        />
        <SelectField
          label="Agent"
          value={filters.agentId ?? ""}
          options={[{ value: "", label: "Any agent or the board" }, ...(agents.value?.list ?? []).map((a) => ({ value: a.id, label: a.name }))]}
          onChange={(e) => setQuery({ agentId: e.currentTarget.value })}
        />
      </form>
      <Async
        resource={activity}
        what="activity"
        empty={filters.entityType || filters.agentId ? "No activity matches these filters." : "Nothing has happened yet."}
      >
        {(entries) => (
          <>
            <p class="meta">
              {entries.length} {entries.length === 1 ? "entry" : "entries"}
              {entries.length > shown ? `, the newest ${shown} shown` : ""}
            </p>
            <ul class="rows activity">
              {entries.slice(0, shown).map((entry) => (
                <ActivityRow key={entry.id} entry={entry} company={company} />
              ))}
            </ul>
            {entries.length > shown && (
              <button type="button" onClick={() => setShown(shown + PAGE)}>
                Show more
              </button>
            )}
          </>
        )}
      </Async>
    </>
  );
}

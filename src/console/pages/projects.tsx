// The company's projects: status, goals, lead agent, target date and whether a budget paused it;
// archived ones on request (`?archived=1`). "New project" adds one. The service announces no event
// for project changes, so the list reloads with budget events (a hard stop pauses a project) and
// when the event stream resyncs.
import { useState } from "preact/hooks";
import { Feedback, useAction } from "../components/action";
import { StatusBadge } from "../components/badges";
import { SelectField, TextArea, TextField } from "../components/fields";
import { Async } from "../components/states";
import { agentName, agents } from "../lib/agents";
import { api, call } from "../lib/api";
import { type Company, companyPath } from "../lib/companies";
import { label, oneOf, PROJECT_STATUSES } from "../lib/enums";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";
import { submittedForm } from "../lib/form";
import { TitleWithCreate } from "../components/title-row";

export default function ProjectsPage({ company, query }: CompanyPageProps) {
  useTitle("Projects");
  const archived = query.archived === "1";
  const path = { companyId: company.id };
  const projects = useResource(() => call(api.GET("/api/companies/{companyId}/projects", { params: { path } })), [company.id], {
    types: ["budget.*", "project.*"],
  });
  const goals = useResource(() => call(api.GET("/api/companies/{companyId}/goals", { params: { path } })), [company.id], { types: ["goal.*"] });
  const [creating, setCreating] = useState(false);
  const listHref = companyPath(company, "projects");
  return (
    <>
      <TitleWithCreate title="Projects" createLabel="New project" creating={creating} onCreate={() => setCreating(true)} />
      {creating && (
        <NewProject
          company={company}
          goals={goals.data ?? []}
          onDone={(created) => {
            setCreating(false);
            if (created) void projects.reload();
          }}
        />
      )}
      <nav class="views" aria-label="Project views">
        <a href={listHref} aria-current={archived ? undefined : "page"}>
          Current
        </a>
        <a href={`${listHref}?archived=1`} aria-current={archived ? "page" : undefined}>
          Archived
        </a>
      </nav>
      <Async
        resource={projects}
        what="projects"
        isEmpty={(list) => list.every((p) => Boolean(p.archivedAt) !== archived)}
        empty={archived ? "No archived projects." : "No projects yet. Create the first with “New project”."}
      >
        {(list) => (
          <ul class="rows project-list">
            {list
              .filter((p) => Boolean(p.archivedAt) === archived)
              .map((p) => (
                <li key={p.id}>
                  <a href={companyPath(company, `projects/${p.id}`)}>{p.name}</a> <StatusBadge status={p.status} />
                  {p.pausedAt && (
                    <>
                      {" "}
                      <StatusBadge status="paused" />
                    </>
                  )}{" "}
                  <span class="meta">
                    {p.leadAgentId ? `led by ${agentName(p.leadAgentId)}` : "no lead"}
                    {p.goals.length > 0 ? ` · ${p.goals.map((g) => g.title).join(", ")}` : ""}
                    {p.targetDate ? ` · due ${p.targetDate.slice(0, 10)}` : ""}
                  </span>
                </li>
              ))}
          </ul>
        )}
      </Async>
    </>
  );
}

function NewProject({ company, goals, onDone }: { company: Company; goals: Array<{ id: string; title: string }>; onDone: (created: boolean) => void }) {
  const action = useAction();
  const submit = async (event: Event) => {
    const { text } = submittedForm(event);
    const created = await action.run(() =>
      call(
        api.POST("/api/companies/{companyId}/projects", {
          params: { path: { companyId: company.id } },
          body: {
            name: text("name"),
            description: text("description") || null,
            status: oneOf(PROJECT_STATUSES, text("status")),
            leadAgentId: text("lead") || null,
            goalIds: text("goal") ? [text("goal")] : [],
            targetDate: text("targetDate") || null,
          },
        }),
      ),
    );
    if (created) onDone(true);
  };
  return (
    <form class="card stack narrow-form" onSubmit={submit} aria-labelledby="new-project">
      <h2 id="new-project">New project</h2>
      <TextField label="Name" name="name" required maxLength={200} />
      <TextArea label="Description" name="description" rows={3} hint="Markdown." />
      <SelectField label="Status" name="status" defaultValue="planned" options={PROJECT_STATUSES.map((s) => ({ value: s, label: label(s) }))} />
      <SelectField
        label="Lead"
        name="lead"
        options={[{ value: "", label: "No lead" }, ...(agents.value?.list ?? []).map((a) => ({ value: a.id, label: a.name }))]}
      />
      <SelectField label="Goal" name="goal" options={[{ value: "", label: "No goal" }, ...goals.map((g) => ({ value: g.id, label: g.title }))]} />
      <TextField label="Target date" name="targetDate" type="date" />
      <Feedback action={action} />
      <div class="actions">
        <button type="submit" class="primary" disabled={action.busy}>
          Create project
        </button>
        <button type="button" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

// The company's routines: status, assignee, triggers, the latest run and the issue it is working on;
// "New routine" adds one (title, description, assignee, project, priority). Follows routine runs
// and issue changes (a run completes when its issue is done).
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso/router";
import { Feedback, useAction } from "../components/action";
import { StatusBadge } from "../components/badges";
import { SelectField, TextArea, TextField } from "../components/fields";
import { Async } from "../components/states";
import { agentName, agents } from "../lib/agents";
import { api, call } from "../lib/api";
import { type Company, companyPath } from "../lib/companies";
import { ISSUE_PRIORITIES, label, oneOf } from "../lib/enums";
import { ago } from "../lib/format";
import { useResource } from "../lib/resource";
import { triggerText } from "../lib/routines";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";
import { submittedForm } from "../lib/form";
import { TitleWithCreate } from "../components/title-row";

export default function RoutinesPage({ company }: CompanyPageProps) {
  useTitle("Routines");
  const routines = useResource(() => call(api.GET("/api/companies/{companyId}/routines", { params: { path: { companyId: company.id } } })), [company.id], {
    types: ["routine.*", "issue.*"],
  });
  const [creating, setCreating] = useState(false);
  return (
    <>
      <TitleWithCreate title="Routines" createLabel="New routine" creating={creating} onCreate={() => setCreating(true)} />
      {creating && <NewRoutine company={company} onCancel={() => setCreating(false)} />}
      <Async resource={routines} what="routines" empty="No routines yet. Create the first with “New routine”.">
        {(list) => (
          <ul class="rows routine-list">
            {list.map((r) => (
              <li key={r.id}>
                <a href={companyPath(company, `routines/${r.id}`)}>{r.title}</a> <StatusBadge status={r.status} />{" "}
                <span class="meta">
                  {agentName(r.assigneeAgentId)} · {r.triggers.length ? r.triggers.map(triggerText).join("; ") : "run by hand only"}
                  {r.latestRun ? ` · last run ${label(r.latestRun.status)} ${ago(r.latestRun.createdAt)}` : " · never run"}
                </span>
                {r.activeExecutionIssue && (
                  <>
                    {" "}
                    <a href={companyPath(company, `issues/${r.activeExecutionIssue.identifier}`)}>
                      <span class="identifier">{r.activeExecutionIssue.identifier}</span> {r.activeExecutionIssue.title}
                    </a>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </Async>
    </>
  );
}

function NewRoutine({ company, onCancel }: { company: Company; onCancel: () => void }) {
  const { route } = useLocation();
  const action = useAction();
  const projects = useResource(() => call(api.GET("/api/companies/{companyId}/projects", { params: { path: { companyId: company.id } } })), [company.id]);
  const assignable = (agents.value?.list ?? []).filter((a) => a.status !== "pending_approval");
  const submit = async (event: Event) => {
    const { text } = submittedForm(event);
    const created = await action.run(() =>
      call(
        api.POST("/api/companies/{companyId}/routines", {
          params: { path: { companyId: company.id } },
          body: {
            title: text("title"),
            description: text("description") || null,
            assigneeAgentId: text("assignee"),
            projectId: text("project") || null,
            priority: oneOf(ISSUE_PRIORITIES, text("priority")),
          },
        }),
      ),
    );
    if (created) route(companyPath(company, `routines/${created.id}`));
  };
  return (
    <form class="card stack narrow-form" onSubmit={submit} aria-labelledby="new-routine">
      <h2 id="new-routine">New routine</h2>
      <TextField label="Title" name="title" required maxLength={500} hint="Each run creates an issue with this title." />
      <TextArea label="Description" name="description" rows={3} hint="Markdown; what the agent should do each time." />
      <SelectField label="Assignee" name="assignee" required options={assignable.map((a) => ({ value: a.id, label: a.name }))} />
      <SelectField
        label="Project"
        name="project"
        options={[{ value: "", label: "No project" }, ...(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))]}
      />
      <SelectField label="Priority" name="priority" defaultValue="medium" options={ISSUE_PRIORITIES.map((p) => ({ value: p, label: label(p) }))} />
      <Feedback action={action} />
      <div class="actions">
        <button type="submit" class="primary" disabled={action.busy || assignable.length === 0}>
          Create routine
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {assignable.length === 0 && <p class="meta">A routine needs an agent to assign its work to: hire one first.</p>}
    </form>
  );
}

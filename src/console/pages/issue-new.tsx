// "New issue": title, description (markdown), assignee (an agent or a person), project, priority
// and status; opens the issue once created.
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso/router";
import { Submit, useAction } from "../components/action";
import { AssigneeSelect } from "../components/assignee-select";
import { SelectField, TextArea, TextField } from "../components/fields";
import { api, call } from "../lib/api";
import { assigneeChoice, assigneeFields } from "../lib/assignees";
import { companyPath } from "../lib/companies";
import { ISSUE_PRIORITIES, ISSUE_STATUSES, label, oneOf } from "../lib/enums";
import { submittedForm } from "../lib/form";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

export default function NewIssuePage({ company, query }: CompanyPageProps) {
  useTitle("New issue");
  const { route } = useLocation();
  const projects = useResource(() => call(api.GET("/api/companies/{companyId}/projects", { params: { path: { companyId: company.id } } })), [company.id]);
  const action = useAction();
  const [assignee, setAssignee] = useState(() => assigneeChoice(query));

  const submit = async (event: Event) => {
    const { text } = submittedForm(event);
    const issue = await action.run(async () =>
      call(
        api.POST("/api/companies/{companyId}/issues", {
          params: { path: { companyId: company.id } },
          body: {
            title: text("title"),
            description: text("description") || null,
            ...assigneeFields(assignee),
            projectId: text("project") || null,
            priority: oneOf(ISSUE_PRIORITIES, text("priority")),
            status: oneOf(ISSUE_STATUSES, text("status")),
          },
        }),
      ),
    );
    if (issue) route(companyPath(company, `issues/${issue.identifier}`));
  };

  return (
    <>
      <h1 tabIndex={-1}>New issue</h1>
      <form class="stack narrow-form" onSubmit={submit}>
        <TextField label="Title" name="title" required maxLength={500} />
        <TextArea label="Description" name="description" rows={6} hint="Markdown." />
        <AssigneeSelect companyId={company.id} name="assignee" value={assignee} onChange={(e) => setAssignee(e.currentTarget.value)} />
        <SelectField
          label="Project"
          name="project"
          defaultValue={query.projectId ?? ""}
          options={[
            { value: "", label: projects.error ? "No project (projects could not be loaded)" : "No project" },
            ...(projects.data ?? []).map((p) => ({ value: p.id, label: p.name })),
          ]}
        />
        <SelectField label="Priority" name="priority" defaultValue="medium" options={ISSUE_PRIORITIES.map((p) => ({ value: p, label: label(p) }))} />
        <SelectField label="Status" name="status" defaultValue="todo" options={ISSUE_STATUSES.map((s) => ({ value: s, label: label(s) }))} />
        <Submit action={action} label="Create issue" primary>
          <a href={companyPath(company, "issues")}>Cancel</a>
        </Submit>
      </form>
    </>
  );
}

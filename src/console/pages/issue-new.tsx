// "New issue": title, description (markdown), assignee, project, priority and status; opens the
// issue once created.
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso/router";
import { SelectField, TextArea, TextField } from "../components/fields";
import { agents } from "../lib/agents";
import { api, call, messageOf } from "../lib/api";
import { companyPath } from "../lib/companies";
import { ISSUE_PRIORITIES, ISSUE_STATUSES, type IssuePriority, type IssueStatus, label } from "../lib/enums";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";
import { submittedForm } from "../lib/form";

export default function NewIssuePage({ company, query }: CompanyPageProps) {
  useTitle("New issue");
  const { route } = useLocation();
  const projects = useResource(() => call(api.GET("/api/companies/{companyId}/projects", { params: { path: { companyId: company.id } } })), [company.id]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    const { text } = submittedForm(event);
    setBusy(true);
    setError(null);
    try {
      const issue = await call(
        api.POST("/api/companies/{companyId}/issues", {
          params: { path: { companyId: company.id } },
          body: {
            title: text("title"),
            description: text("description") || null,
            assigneeAgentId: text("assignee") || null,
            projectId: text("project") || null,
            priority: text("priority") as IssuePriority,
            status: text("status") as IssueStatus,
          },
        }),
      );
      route(companyPath(company, `issues/${issue.identifier}`));
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>New issue</h1>
      <form class="stack narrow-form" onSubmit={submit}>
        <TextField label="Title" name="title" required maxLength={500} />
        <TextArea label="Description" name="description" rows={6} hint="Markdown." />
        <SelectField
          label="Assignee"
          name="assignee"
          defaultValue={query.assigneeAgentId ?? ""}
          options={[{ value: "", label: "Unassigned" }, ...(agents.value?.list ?? []).map((a) => ({ value: a.id, label: a.name }))]}
        />
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
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Create issue
          </button>
          <a href={companyPath(company, "issues")}>Cancel</a>
        </div>
      </form>
    </>
  );
}

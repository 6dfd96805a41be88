// An issue's status, priority and assignee: each change saves at once.
import { agents } from "../../lib/agents";
import { api, call, type Schemas } from "../../lib/api";
import { ISSUE_PRIORITIES, ISSUE_STATUSES, type IssuePriority, type IssueStatus, label, onChosen } from "../../lib/enums";
import { Feedback, useAction } from "../action";
import { SelectField } from "../fields";

export function IssueControls({ issue, onSaved }: { issue: Schemas["IssueDetail"]; onSaved: () => void }) {
  const action = useAction();
  const save = async (body: { status?: IssueStatus; priority?: IssuePriority; assigneeAgentId?: string | null }, what: string) => {
    await action.run(() => call(api.PATCH("/api/issues/{issueId}", { params: { path: { issueId: issue.id } }, body })), `${what} saved.`);
    onSaved();
  };
  return (
    <section class="controls" aria-label="Issue settings">
      <SelectField
        label="Status"
        value={issue.status}
        options={ISSUE_STATUSES.map((s) => ({ value: s, label: label(s) }))}
        onChange={onChosen(ISSUE_STATUSES, (status) => void save({ status }, "Status"))}
      />
      <SelectField
        label="Priority"
        value={issue.priority}
        options={ISSUE_PRIORITIES.map((p) => ({ value: p, label: label(p) }))}
        onChange={onChosen(ISSUE_PRIORITIES, (priority) => void save({ priority }, "Priority"))}
      />
      <SelectField
        label="Assignee"
        value={issue.assigneeAgentId ?? ""}
        options={[{ value: "", label: "Unassigned" }, ...(agents.value?.list ?? []).map((a) => ({ value: a.id, label: a.name }))]}
        onChange={(e) => void save({ assigneeAgentId: e.currentTarget.value || null }, "Assignee")}
      />
      <Feedback action={action} />
    </section>
  );
}

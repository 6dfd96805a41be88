// An issue's status, priority and assignee (an agent or a person): each change saves at once.
import { api, call, type Schemas } from "../../lib/api";
import { type Assigned, assigneeChoice, assigneeFields, assigneeName } from "../../lib/assignees";
import { ISSUE_PRIORITIES, ISSUE_STATUSES, type IssuePriority, type IssueStatus, label, onChosen } from "../../lib/enums";
import { Feedback, useAction } from "../action";
import { AssigneeSelect } from "../assignee-select";
import { SelectField } from "../fields";

export function IssueControls({ issue, onSaved }: { issue: Schemas["IssueDetail"]; onSaved: () => void }) {
  const action = useAction();
  const save = async (body: { status?: IssueStatus; priority?: IssuePriority } | Assigned, what: string) => {
    await action.run(() => call(api.PATCH("/api/issues/{issueId}", { params: { path: { issueId: issue.id } }, body })), what);
    onSaved();
  };
  return (
    <section class="controls" aria-label="Issue settings">
      <SelectField
        label="Status"
        value={issue.status}
        options={ISSUE_STATUSES.map((s) => ({ value: s, label: label(s) }))}
        onChange={onChosen(ISSUE_STATUSES, (status) => void save({ status }, "Status saved."))}
      />
      <SelectField
        label="Priority"
        value={issue.priority}
        options={ISSUE_PRIORITIES.map((p) => ({ value: p, label: label(p) }))}
        onChange={onChosen(ISSUE_PRIORITIES, (priority) => void save({ priority }, "Priority saved."))}
      />
      <AssigneeSelect
        companyId={issue.companyId}
        value={assigneeChoice(issue)}
        onChange={(e) => {
          const assigned = assigneeFields(e.currentTarget.value);
          void save(assigned, `Assigned to ${assigneeName(assigned)}.`);
        }}
      />
      <Feedback action={action} />
    </section>
  );
}

// The company's goals as a tree (company goals down to tasks), each with its level, status and
// owner; "New goal" adds one under any other. Goal changes are announced by no event: the list
// reloads when the event stream resyncs.
import { useState } from "preact/hooks";
import { Feedback, useAction } from "../components/action";
import { StatusBadge } from "../components/badges";
import { SelectField, TextArea, TextField } from "../components/fields";
import { Async } from "../components/states";
import { agentName, agents } from "../lib/agents";
import { api, call, type Schemas } from "../lib/api";
import { type Company, companyPath } from "../lib/companies";
import { GOAL_LEVELS, GOAL_STATUSES, label, oneOf } from "../lib/enums";
import { type GoalNode, goalTree } from "../lib/goal-tree";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";
import { submittedForm } from "../lib/form";
import { TitleWithCreate } from "../components/title-row";

type Goal = Schemas["Goal"];

export default function GoalsPage({ company }: CompanyPageProps) {
  useTitle("Goals");
  const goals = useResource(() => call(api.GET("/api/companies/{companyId}/goals", { params: { path: { companyId: company.id } } })), [company.id], {
    types: ["goal.*"],
  });
  const [creating, setCreating] = useState(false);
  return (
    <>
      <TitleWithCreate title="Goals" createLabel="New goal" creating={creating} onCreate={() => setCreating(true)} />
      {creating && (
        <NewGoal
          company={company}
          goals={goals.data ?? []}
          onDone={(created) => {
            setCreating(false);
            if (created) void goals.reload();
          }}
        />
      )}
      <Async resource={goals} what="goals" empty="No goals yet. Create the first with “New goal”.">
        {(list) => (
          <ul class="tree goal-tree">
            {goalTree(list).map((node) => (
              <GoalBranch key={node.goal.id} node={node} company={company} />
            ))}
          </ul>
        )}
      </Async>
    </>
  );
}

function GoalBranch({ node, company }: { node: GoalNode<Goal>; company: Company }) {
  const { goal, children } = node;
  return (
    <li>
      <a href={companyPath(company, `goals/${goal.id}`)}>{goal.title}</a> <StatusBadge status={goal.status} />{" "}
      <span class="meta">
        {label(goal.level)} goal{goal.ownerAgentId ? ` · owned by ${agentName(goal.ownerAgentId)}` : ""}
        {goal.isCompanyDefault ? " · company default" : ""}
      </span>
      {children.length > 0 && (
        <ul aria-label={`Sub-goals of ${goal.title}`}>
          {children.map((child) => (
            <GoalBranch key={child.goal.id} node={child} company={company} />
          ))}
        </ul>
      )}
    </li>
  );
}

function NewGoal({ company, goals, onDone }: { company: Company; goals: Goal[]; onDone: (created: boolean) => void }) {
  const action = useAction();
  const submit = async (event: Event) => {
    const { text } = submittedForm(event);
    const created = await action.run(() =>
      call(
        api.POST("/api/companies/{companyId}/goals", {
          params: { path: { companyId: company.id } },
          body: {
            title: text("title"),
            description: text("description") || null,
            level: oneOf(GOAL_LEVELS, text("level")),
            status: oneOf(GOAL_STATUSES, text("status")),
            parentId: text("parent") || null,
            ownerAgentId: text("owner") || null,
          },
        }),
      ),
    );
    if (created) onDone(true);
  };
  return (
    <form class="card stack narrow-form" onSubmit={submit} aria-labelledby="new-goal">
      <h2 id="new-goal">New goal</h2>
      <TextField label="Title" name="title" required maxLength={500} />
      <TextArea label="Description" name="description" rows={3} hint="Markdown." />
      <SelectField label="Level" name="level" defaultValue="task" options={GOAL_LEVELS.map((l) => ({ value: l, label: label(l) }))} />
      <SelectField label="Status" name="status" defaultValue="planned" options={GOAL_STATUSES.map((s) => ({ value: s, label: label(s) }))} />
      <SelectField label="Part of" name="parent" options={[{ value: "", label: "No parent goal" }, ...goals.map((g) => ({ value: g.id, label: g.title }))]} />
      <SelectField
        label="Owner"
        name="owner"
        options={[{ value: "", label: "No owner" }, ...(agents.value?.list ?? []).map((a) => ({ value: a.id, label: a.name }))]}
      />
      <Feedback action={action} />
      <div class="actions">
        <button type="submit" class="primary" disabled={action.busy}>
          Create goal
        </button>
        <button type="button" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

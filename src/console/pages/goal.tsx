// One goal: its description, status / level / owner controls (each change saves at once), where it
// sits (parent, sub-goals) and the projects that work towards it.
import { Feedback, useAction } from "../components/action";
import { StatusBadge } from "../components/badges";
import { SelectField } from "../components/fields";
import { Markdown } from "../components/markdown";
import { Async } from "../components/states";
import { agents } from "../lib/agents";
import { api, call, type Schemas } from "../lib/api";
import { companyPath } from "../lib/companies";
import { GOAL_LEVELS, GOAL_STATUSES, label, onChosen } from "../lib/enums";
import { ago } from "../lib/format";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

type Goal = Schemas["Goal"];

export default function GoalPage({ company, params }: CompanyPageProps) {
  const goalId = params.goalId;
  const path = { companyId: company.id };
  const goal = useResource(() => call(api.GET("/api/goals/{goalId}", { params: { path: { goalId } } })), [goalId], {
    types: ["goal.updated"],
    when: (event) => event.subject.id === goalId,
  });
  const related = useResource(
    async () => {
      const [goals, projects] = await Promise.all([
        call(api.GET("/api/companies/{companyId}/goals", { params: { path } })),
        call(api.GET("/api/companies/{companyId}/projects", { params: { path } })),
      ]);
      return { goals, projects: projects.filter((p) => p.goalIds.includes(goalId)) };
    },
    [company.id, goalId],
    { types: ["goal.*", "project.*"] },
  );
  useTitle(goal.data?.title ?? "Goal");
  return (
    <Async resource={goal} what="the goal">
      {(g) => {
        const parent = related.data?.goals.find((other) => other.id === g.parentId);
        const children = related.data?.goals.filter((other) => other.parentId === g.id) ?? [];
        return (
          <article>
            <p class="meta">
              <a href={companyPath(company, "goals")}>Goals</a>
              {parent && (
                <>
                  {" "}
                  › <a href={companyPath(company, `goals/${parent.id}`)}>{parent.title}</a>
                </>
              )}
            </p>
            <h1 tabIndex={-1}>{g.title}</h1>
            <p class="meta">
              <StatusBadge status={g.status} /> {label(g.level)} goal{g.isCompanyDefault ? " · the company's default goal" : ""} · updated {ago(g.updatedAt)}
            </p>
            <GoalControls goal={g} onSaved={() => void goal.reload()} />
            <section aria-labelledby="goal-description">
              <h2 id="goal-description">Description</h2>
              {g.description ? <Markdown source={g.description} /> : <p class="empty">No description.</p>}
            </section>
            <Async resource={related} what="related goals and projects">
              {({ projects }) => (
                <>
                  <section aria-labelledby="goal-children">
                    <h2 id="goal-children">Sub-goals</h2>
                    {children.length === 0 ? (
                      <p class="empty">No sub-goals.</p>
                    ) : (
                      <ul class="rows">
                        {children.map((c) => (
                          <li key={c.id}>
                            <a href={companyPath(company, `goals/${c.id}`)}>{c.title}</a> <StatusBadge status={c.status} />
                          </li>
                        ))}
                      </ul>
                    )}
                  </section>
                  <section aria-labelledby="goal-projects">
                    <h2 id="goal-projects">Projects</h2>
                    {projects.length === 0 ? (
                      <p class="empty">No project works towards this goal.</p>
                    ) : (
                      <ul class="rows">
                        {projects.map((p) => (
                          <li key={p.id}>
                            <a href={companyPath(company, `projects/${p.id}`)}>{p.name}</a> <StatusBadge status={p.status} />
                          </li>
                        ))}
                      </ul>
                    )}
                  </section>
                </>
              )}
            </Async>
          </article>
        );
      }}
    </Async>
  );
}

function GoalControls({ goal, onSaved }: { goal: Goal; onSaved: () => void }) {
  const action = useAction();
  const save = async (body: Schemas["UpdateGoal"], what: string) => {
    await action.run(() => call(api.PATCH("/api/goals/{goalId}", { params: { path: { goalId: goal.id } }, body })), what);
    onSaved();
  };
  return (
    <section class="controls" aria-label="Goal settings">
      <SelectField
        label="Status"
        value={goal.status}
        options={GOAL_STATUSES.map((s) => ({ value: s, label: label(s) }))}
        onChange={onChosen(GOAL_STATUSES, (status) => save({ status }, "Status saved."))}
      />
      <SelectField
        label="Level"
        value={goal.level}
        options={GOAL_LEVELS.map((l) => ({ value: l, label: label(l) }))}
        onChange={onChosen(GOAL_LEVELS, (level) => save({ level }, "Level saved."))}
      />
      <SelectField
        label="Owner"
        value={goal.ownerAgentId ?? ""}
        options={[{ value: "", label: "No owner" }, ...(agents.value?.list ?? []).map((a) => ({ value: a.id, label: a.name }))]}
        onChange={(e) => save({ ownerAgentId: e.currentTarget.value || null }, "Owner saved.")}
      />
      <Feedback action={action} />
    </section>
  );
}

// One project: status, lead and goals (each change saves at once), description, workspaces, its
// spend and budget, and its issues (with "New issue" in this project). Archive / restore.
import { useTitle } from "../lib/title";
import { Feedback, useAction } from "../components/action";
import { StatusBadge } from "../components/badges";
import { SelectField } from "../components/fields";
import { Markdown } from "../components/markdown";
import { Async } from "../components/states";
import { agents } from "../lib/agents";
import { assigneeName } from "../lib/assignees";
import { api, call, type Schemas } from "../lib/api";
import { WINDOW_LABEL } from "../lib/budgets";
import { companyPath } from "../lib/companies";
import { label, onChosen, PROJECT_STATUSES } from "../lib/enums";
import { ago, money } from "../lib/format";
import { usePeople } from "../lib/people";
import { useResource } from "../lib/resource";
import type { CompanyPageProps } from "../routes";

type Project = Pick<Schemas["Project"], "id" | "companyId" | "status" | "leadAgentId" | "goalIds" | "archivedAt">;

export default function ProjectPage({ company, params }: CompanyPageProps) {
  const projectId = params.projectId;
  const path = { companyId: company.id };
  const project = useResource(
    () => call(api.GET("/api/projects/{projectId}", { params: { path: { projectId }, query: { companyId: company.id } } })),
    [projectId],
    {
      types: ["budget.*", "project.updated"],
      when: (event): boolean => event.type !== "project.updated" || event.subject.id === project.data?.id,
    },
  );
  const id = project.data?.id;
  const issues = useResource(
    async () => (id ? call(api.GET("/api/companies/{companyId}/issues", { params: { path, query: { projectId: id, limit: "200" } } })) : []),
    [company.id, id],
    { types: ["issue.*"] },
  );
  const budget = useResource(
    async () => {
      if (!id) return null;
      const [spend, overview] = await Promise.all([
        call(api.GET("/api/companies/{companyId}/costs/by-project", { params: { path } })),
        call(api.GET("/api/companies/{companyId}/budgets/overview", { params: { path } })),
      ]);
      return {
        spentCents: spend.find((s) => s.projectId === id)?.costCents ?? 0,
        policies: overview.policies.filter((p) => p.scopeType === "project" && p.scopeId === id),
      };
    },
    [company.id, id],
    { types: ["cost.*", "budget.*"] },
  );
  // People's names for the issues assigned to them.
  usePeople(company.id);
  const goals = useResource(() => call(api.GET("/api/companies/{companyId}/goals", { params: { path } })), [company.id], { types: ["goal.*"] });
  useTitle(project.data?.name ?? "Project");
  return (
    <Async resource={project} what="the project">
      {(p) => (
        <article>
          <p class="meta">
            <a href={companyPath(company, "projects")}>Projects</a>
          </p>
          <h1 tabIndex={-1}>{p.name}</h1>
          <p class="meta">
            <StatusBadge status={p.status} />
            {p.pausedAt ? (
              <>
                {" "}
                <StatusBadge status="paused" /> {p.pauseReason ? label(p.pauseReason) : ""}
              </>
            ) : null}
            {p.archivedAt ? " · archived" : ""} · updated {ago(p.updatedAt)}
          </p>
          <ProjectControls project={p} goals={goals.data ?? []} onSaved={() => void project.reload()} />
          <section aria-labelledby="project-description">
            <h2 id="project-description">Description</h2>
            {p.description ? <Markdown source={p.description} /> : <p class="empty">No description.</p>}
          </section>
          <section aria-labelledby="project-budget">
            <h2 id="project-budget">Spend and budget</h2>
            <Async resource={budget} what="spend">
              {(b) =>
                b && (
                  <>
                    <p>{money(b.spentCents)} spent in all.</p>
                    {b.policies.length ? (
                      <ul class="rows">
                        {b.policies.map((policy) => (
                          <li key={policy.id}>
                            {WINDOW_LABEL[policy.windowKind]} budget {money(policy.amountCents)}: {money(policy.observedCents)} spent (
                            {policy.utilizationPercent}%) <StatusBadge status={policy.isActive ? policy.status : "inactive"} />
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <p class="empty">No project budget.</p>
                    )}
                    <p>
                      <a href={companyPath(company, "costs")}>Set budgets on the costs page</a>
                    </p>
                  </>
                )
              }
            </Async>
          </section>
          <section aria-labelledby="project-workspaces">
            <h2 id="project-workspaces">Workspaces</h2>
            {p.workspaces.length === 0 ? (
              <p class="empty">No workspaces: agents work without a checkout.</p>
            ) : (
              <ul class="rows">
                {p.workspaces.map((w) => (
                  <li key={w.id}>
                    {w.name} {w.isPrimary && <span class="badge">Primary</span>}{" "}
                    <span class="meta mono">{w.repoUrl ?? w.cwd ?? w.remoteWorkspaceRef ?? label(w.sourceType)}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="project-issues">
            <div class="title-row">
              <h2 id="project-issues">Issues</h2>
              <a class="button" href={`${companyPath(company, "issues/new")}?projectId=${encodeURIComponent(p.id)}`}>
                New issue
              </a>
            </div>
            <Async resource={issues} what="issues" empty="No issues in this project.">
              {(list) => (
                <ul class="rows">
                  {list.map((issue) => (
                    <li key={issue.id}>
                      <a href={companyPath(company, `issues/${issue.identifier}`)}>
                        <span class="identifier">{issue.identifier}</span> {issue.title}
                      </a>{" "}
                      <StatusBadge status={issue.status} /> <span class="meta">{assigneeName(issue)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </Async>
          </section>
        </article>
      )}
    </Async>
  );
}

function ProjectControls({ project, goals, onSaved }: { project: Project; goals: Array<{ id: string; title: string }>; onSaved: () => void }) {
  const action = useAction();
  const save = async (body: Schemas["UpdateProject"], what: string) => {
    await action.run(
      () => call(api.PATCH("/api/projects/{projectId}", { params: { path: { projectId: project.id }, query: { companyId: project.companyId } }, body })),
      what,
    );
    onSaved();
  };
  return (
    <section class="controls" aria-label="Project settings">
      <SelectField
        label="Status"
        value={project.status}
        options={PROJECT_STATUSES.map((s) => ({ value: s, label: label(s) }))}
        onChange={onChosen(PROJECT_STATUSES, (status) => save({ status }, "Status saved."))}
      />
      <SelectField
        label="Lead"
        value={project.leadAgentId ?? ""}
        options={[{ value: "", label: "No lead" }, ...(agents.value?.list ?? []).map((a) => ({ value: a.id, label: a.name }))]}
        onChange={(e) => save({ leadAgentId: e.currentTarget.value || null }, "Lead saved.")}
      />
      <SelectField
        label="Goal"
        value={project.goalIds[0] ?? ""}
        options={[{ value: "", label: "No goal" }, ...goals.map((g) => ({ value: g.id, label: g.title }))]}
        onChange={(e) =>
          save({ goalIds: e.currentTarget.value ? [e.currentTarget.value, ...project.goalIds.slice(1)] : project.goalIds.slice(1) }, "Goal saved.")
        }
      />
      <div class="actions">
        <button
          type="button"
          disabled={action.busy}
          onClick={() =>
            save({ archivedAt: project.archivedAt ? null : new Date().toISOString() }, project.archivedAt ? "Project restored." : "Project archived.")
          }
        >
          {project.archivedAt ? "Restore project" : "Archive project"}
        </button>
      </div>
      <Feedback action={action} />
    </section>
  );
}

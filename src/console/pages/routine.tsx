// One routine: what each run asks of its agent, Pause / Resume, "Run now" (with the routine's
// variables), its triggers (add a schedule, webhook or API trigger; enable, disable, delete; a
// webhook's URL and secret are shown once, at creation or rotation) and its run history with the
// issue each run created. Follows routine runs and issue changes.
import { PriorityBadge, StatusBadge } from "../components/badges";
import { Markdown } from "../components/markdown";
import { RoutineControls } from "../components/routine/controls";
import { Triggers } from "../components/routine/triggers";
import { Async } from "../components/states";
import { api, call } from "../lib/api";
import { companyPath } from "../lib/companies";
import { label } from "../lib/enums";
import { ago, when } from "../lib/format";
import type { LiveEvent } from "../lib/live";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

export default function RoutinePage({ company, params }: CompanyPageProps) {
  const routineId = params.routineId;
  const about = (event: LiveEvent) => event.type.startsWith("issue.") || event.subject?.id === routineId;
  const routine = useResource(() => call(api.GET("/api/routines/{routineId}", { params: { path: { routineId } } })), [routineId], {
    types: ["routine.*", "issue.*"],
    when: about,
  });
  const runs = useResource(() => call(api.GET("/api/routines/{routineId}/runs", { params: { path: { routineId }, query: { limit: 50 } } })), [routineId], {
    types: ["routine.*", "issue.*"],
    when: about,
  });
  useTitle(routine.data?.title ?? "Routine");
  const refresh = () => {
    void routine.reload();
    void runs.reload();
  };
  return (
    <Async resource={routine} what="the routine">
      {(r) => (
        <article>
          <p class="meta">
            <a href={companyPath(company, "routines")}>Routines</a>
          </p>
          <h1 tabIndex={-1}>{r.title}</h1>
          <p class="meta">
            <StatusBadge status={r.status} /> <PriorityBadge priority={r.priority} /> · assigned to{" "}
            {r.assignee ? <a href={companyPath(company, `agents/${r.assignee.id}`)}>{r.assignee.name}</a> : "nobody"}
            {r.project ? (
              <>
                {" "}
                · project <a href={companyPath(company, `projects/${r.project.id}`)}>{r.project.name}</a>
              </>
            ) : null}
            {r.lastTriggeredAt ? ` · last fired ${ago(r.lastTriggeredAt)}` : " · never fired"}
          </p>
          <RoutineControls routine={r} onChanged={refresh} />
          {r.activeExecutionIssue && (
            <p>
              Working on{" "}
              <a href={companyPath(company, `issues/${r.activeExecutionIssue.identifier}`)}>
                <span class="identifier">{r.activeExecutionIssue.identifier}</span> {r.activeExecutionIssue.title}
              </a>
            </p>
          )}
          <section aria-labelledby="routine-description">
            <h2 id="routine-description">Each run asks</h2>
            {r.description ? <Markdown source={r.description} /> : <p class="empty">No description: each run's issue has the title only.</p>}
            <p class="meta">
              Concurrency: {label(r.concurrencyPolicy)} · missed slots: {label(r.catchUpPolicy)}
            </p>
          </section>
          <Triggers routine={r} onChanged={refresh} />
          <section aria-labelledby="routine-runs">
            <h2 id="routine-runs">Run history</h2>
            <Async resource={runs} what="runs" empty="No runs yet. “Run now” starts one.">
              {(list) => (
                <ul class="rows routine-runs">
                  {list
                    .filter((run) => run !== null)
                    .map((run) => (
                      <li key={run.id}>
                        <StatusBadge status={run.status} /> {label(run.source)}{" "}
                        <time class="meta" dateTime={run.createdAt} title={when(run.createdAt)}>
                          {ago(run.createdAt)}
                        </time>
                        {run.linkedIssueId && (
                          <>
                            {" "}
                            · <a href={companyPath(company, `issues/${run.linkedIssueId}`)}>its issue</a>
                          </>
                        )}
                        {run.failureReason && <span class="meta"> · {run.failureReason}</span>}
                        {run.coalescedIntoRunId && <span class="meta"> · joined a run already going</span>}
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

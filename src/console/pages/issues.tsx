// The company's issues: filters and search (`q`) kept in the URL, as a list or as a board by
// status. On the board a card moves by dragging it to another column, or — from the keyboard, or
// on a phone — with its "Move to" menu; either way the issue's status changes.
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso/router";
import { Feedback, useAction } from "../components/action";
import { PriorityBadge } from "../components/badges";
import { SelectField, TextField } from "../components/fields";
import { IssueList } from "../components/issue-list";
import { Async } from "../components/states";
import { agents } from "../lib/agents";
import { assigneeName } from "../lib/assignees";
import { api, call, type Schemas } from "../lib/api";
import { companyPath } from "../lib/companies";
import { ISSUE_STATUSES, type IssueStatus, label, onChosen } from "../lib/enums";
import { usePeople } from "../lib/people";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

type Issue = Schemas["Issue"];
const FILTERS = ["q", "status", "assigneeAgentId", "projectId"] as const;

export default function IssuesPage({ company, query }: CompanyPageProps) {
  const board = query.view === "board";
  useTitle(board ? "Issues board" : "Issues");
  const { route, path } = useLocation();
  const filters = Object.fromEntries(FILTERS.filter((f) => query[f]).map((f) => [f, query[f]]));
  const key = JSON.stringify(filters);
  const issues = useResource(
    () => call(api.GET("/api/companies/{companyId}/issues", { params: { path: { companyId: company.id }, query: { ...filters, limit: "500" } } })),
    [company.id, key],
    { types: ["issue.*"] },
  );
  // People's names for the issues assigned to them.
  usePeople(company.id);
  const projects = useResource(() => call(api.GET("/api/companies/{companyId}/projects", { params: { path: { companyId: company.id } } })), [company.id]);
  const action = useAction();

  const setQuery = (changes: Record<string, string>) => {
    const next = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...query, ...changes })) if (v) next.set(k, v);
    const search = next.toString();
    route(`${path}${search ? `?${search}` : ""}`, true);
  };

  const move = async (issue: Issue, status: IssueStatus) => {
    if (issue.status === status) return;
    const moved = await action.run(
      () => call(api.PATCH("/api/issues/{issueId}", { params: { path: { issueId: issue.id } }, body: { status } })),
      `${issue.identifier} moved to ${label(status)}.`,
      { failed: (message) => `${issue.identifier} could not be moved: ${message}` },
    );
    if (moved) await issues.reload();
  };

  const agentOptions = [{ value: "", label: "Anyone" }, ...(agents.value?.list ?? []).map((a) => ({ value: a.id, label: a.name }))];
  const projectOptions = [{ value: "", label: "Any project" }, ...(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))];
  const listHref = companyPath(company, "issues");

  return (
    <>
      <div class="title-row">
        <h1 tabIndex={-1}>Issues</h1>
        <a class="button primary" href={companyPath(company, "issues/new")}>
          New issue
        </a>
      </div>
      <search>
        <form
          class="filters"
          aria-label="Filter issues"
          onSubmit={(e) => {
            e.preventDefault();
            setQuery({ q: String(new FormData(e.currentTarget).get("q") ?? "") });
          }}
        >
          <TextField label="Search" name="q" type="search" defaultValue={query.q ?? ""} key={query.q ?? ""} />
          <SelectField
            label="Status"
            value={query.status ?? ""}
            options={[{ value: "", label: "Any status" }, ...ISSUE_STATUSES.map((s) => ({ value: s, label: label(s) }))]}
            onChange={(e) => setQuery({ status: e.currentTarget.value })}
          />
          <SelectField
            label="Assignee"
            value={query.assigneeAgentId ?? ""}
            options={agentOptions}
            onChange={(e) => setQuery({ assigneeAgentId: e.currentTarget.value })}
          />
          <SelectField
            label="Project"
            value={query.projectId ?? ""}
            options={projectOptions}
            onChange={(e) => setQuery({ projectId: e.currentTarget.value })}
          />
          <button type="submit">Search</button>
        </form>
      </search>
      <nav class="views" aria-label="Issue views">
        <a href={`${listHref}${viewSearch(query, null)}`} aria-current={board ? undefined : "page"}>
          List
        </a>
        <a href={`${listHref}${viewSearch(query, "board")}`} aria-current={board ? "page" : undefined}>
          Board
        </a>
      </nav>
      <Feedback action={action} />
      <Async
        resource={issues}
        what="issues"
        empty={Object.keys(filters).length ? "No issue matches these filters." : "No issues yet. Create the first with “New issue”."}
      >
        {(list) => (board ? <Board issues={list} company={company} onMove={move} /> : <IssueList issues={list} company={company} />)}
      </Async>
    </>
  );
}

function viewSearch(query: Record<string, string>, view: string | null) {
  const next = new URLSearchParams();
  for (const f of FILTERS) if (query[f]) next.set(f, query[f]);
  if (view) next.set("view", view);
  const s = next.toString();
  return s ? `?${s}` : "";
}

function Board({ issues, company, onMove }: { issues: Issue[]; company: CompanyPageProps["company"]; onMove: (issue: Issue, status: IssueStatus) => void }) {
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<IssueStatus | null>(null);
  return (
    <div class="board">
      {ISSUE_STATUSES.map((status) => {
        const column = issues.filter((i) => i.status === status);
        return (
          <section
            key={status}
            class={`column${over === status ? " drop" : ""}`}
            aria-labelledby={`col-${status}`}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(status);
            }}
            onDragLeave={() => setOver(null)}
            onDrop={(e) => {
              e.preventDefault();
              setOver(null);
              const issue = issues.find((i) => i.id === (e.dataTransfer?.getData("text/plain") || dragging));
              if (issue) onMove(issue, status);
            }}
          >
            <h2 id={`col-${status}`}>
              {label(status)} <span class="meta">({column.length})</span>
            </h2>
            <ul>
              {column.map((issue) => (
                <li
                  key={issue.id}
                  class="card"
                  draggable
                  onDragStart={(e) => {
                    e.dataTransfer?.setData("text/plain", issue.id);
                    setDragging(issue.id);
                  }}
                  onDragEnd={() => setDragging(null)}
                >
                  <a href={companyPath(company, `issues/${issue.identifier}`)}>
                    <span class="identifier">{issue.identifier}</span> {issue.title}
                  </a>
                  <p class="meta">
                    <PriorityBadge priority={issue.priority} /> {assigneeName(issue)}
                  </p>
                  <SelectField
                    label={`Move ${issue.identifier} to`}
                    value={issue.status}
                    options={ISSUE_STATUSES.map((s) => ({ value: s, label: label(s) }))}
                    onChange={onChosen(ISSUE_STATUSES, (status) => onMove(issue, status))}
                  />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

// The company's approvals, all of them, newest first: what each asked, who asked, its status, and
// for a decided one who decided, when and with which note; filtered by status and type (in the URL).
// Pending ones are decided in Waiting on you (linked). Follows approval events.
import { useLocation } from "preact-iso/router";
import { approvalTitle } from "../components/inbox/approval-card";
import { StatusBadge } from "../components/badges";
import { SelectField } from "../components/fields";
import { Async } from "../components/states";
import { agentName } from "../lib/agents";
import { api, call, type Schemas } from "../lib/api";
import { companyPath } from "../lib/companies";
import { label } from "../lib/enums";
import { ago, when } from "../lib/format";
import { personName } from "../lib/assignees";
import { usePeople } from "../lib/people";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

type Approval = Schemas["Approval"];
const STATUSES: Approval["status"][] = ["pending", "revision_requested", "approved", "rejected"];
const TYPES: Approval["type"][] = ["hire_agent", "approve_ceo_strategy", "budget_override_required", "request_board_approval"];

export default function ApprovalsPage({ company, query }: CompanyPageProps) {
  useTitle("Approvals");
  const { route, path } = useLocation();
  usePeople(company.id); // who decided, by name
  const status = STATUSES.find((s) => s === query.status);
  const type = TYPES.find((t) => t === query.type);
  const approvals = useResource(
    async () => call(api.GET("/api/companies/{companyId}/approvals", { params: { path: { companyId: company.id }, query: { status, type } } })),
    [company.id, status, type],
    { types: ["approval.*"] },
  );
  const setQuery = (changes: Record<string, string>) => {
    const next = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...query, ...changes })) if (v) next.set(k, v);
    const search = next.toString();
    route(`${path}${search ? `?${search}` : ""}`, true);
  };
  return (
    <>
      <h1 tabIndex={-1}>Approvals</h1>
      <p>
        Every approval the company has had. Those waiting are decided in <a href={companyPath(company, "inbox")}>Waiting on you</a>.
      </p>
      <form class="filters" aria-label="Filter approvals" onSubmit={(e) => e.preventDefault()}>
        <SelectField
          label="Status"
          value={status ?? ""}
          options={[{ value: "", label: "Any status" }, ...STATUSES.map((s) => ({ value: s, label: label(s) }))]}
          onChange={(e) => setQuery({ status: e.currentTarget.value })}
        />
        <SelectField
          label="Type"
          value={type ?? ""}
          options={[{ value: "", label: "Any type" }, ...TYPES.map((t) => ({ value: t, label: label(t) }))]}
          onChange={(e) => setQuery({ type: e.currentTarget.value })}
        />
      </form>
      <Async resource={approvals} what="approvals" empty={status || type ? "No approval matches these filters." : "No approval has been asked for yet."}>
        {(list) => (
          <ul class="rows approvals">
            {list.map((a) => (
              <li key={a.id}>
                <h2 class="row-title">{approvalTitle(a)}</h2>
                <p class="meta">
                  <StatusBadge status={a.status} /> {label(a.type)} · asked by {a.requestedByAgentId ? agentName(a.requestedByAgentId) : "the board"}{" "}
                  <time dateTime={a.createdAt} title={when(a.createdAt)}>
                    {ago(a.createdAt)}
                  </time>
                  {a.decidedAt && (
                    <>
                      {" "}
                      · {label(a.status)} by {a.decidedByUserId ? personName(a.decidedByUserId) : "the board"}{" "}
                      <time dateTime={a.decidedAt} title={when(a.decidedAt)}>
                        {ago(a.decidedAt)}
                      </time>
                    </>
                  )}
                </p>
                {a.decisionNote && <p class="note">“{a.decisionNote}”</p>}
                {a.status === "pending" && <a href={companyPath(company, "inbox")}>Decide in Waiting on you</a>}
              </li>
            ))}
          </ul>
        )}
      </Async>
    </>
  );
}

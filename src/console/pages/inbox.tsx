// "Waiting on you": the work assigned to you and every decision the board owes, in one place. The
// open issues assigned to the signed-in member, approvals (approve, reject or ask for a revision,
// with a comment), budget incidents (keep the scope paused, or raise its budget and resume) and
// join requests. The navigation shows the same count (lib/inbox.ts).
import { Feedback, useAction } from "../components/action";
import { IssueList } from "../components/issue-list";
import { ApprovalCard } from "../components/inbox/approval-card";
import { IncidentCard } from "../components/inbox/incident-card";
import { JoinRequestCard } from "../components/inbox/join-request-card";
import { Empty, ErrorMessage, Loading } from "../components/states";
import { assignedError, assignedToYou, inbox, inboxError, loadAssigned, loadInbox } from "../lib/inbox";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

export default function InboxPage({ company }: CompanyPageProps) {
  useTitle("Waiting on you");
  const action = useAction();
  const current = inbox.value?.companyId === company.id ? inbox.value : undefined;
  const assigned = assignedToYou.value?.companyId === company.id ? assignedToYou.value.issues : undefined;
  const done = (message: string) => action.run(() => loadInbox(company.id), message);
  return (
    <>
      <h1 tabIndex={-1}>Waiting on you</h1>
      <Feedback action={action} />
      <section aria-labelledby="inbox-assigned">
        <h2 id="inbox-assigned">Assigned to you{assigned ? ` (${assigned.length})` : ""}</h2>
        {assignedError.value && <ErrorMessage message={assignedError.value} retry={() => void loadAssigned(company.id)} />}
        {!assigned ? (
          !assignedError.value && <Loading what="your issues" />
        ) : assigned.length === 0 ? (
          <Empty>No open issue is assigned to you.</Empty>
        ) : (
          <IssueList issues={assigned} company={company} assignee={false} />
        )}
      </section>
      {inboxError.value && <ErrorMessage message={inboxError.value} retry={() => void loadInbox(company.id)} />}
      {!current ? (
        !inboxError.value && <Loading what="the inbox" />
      ) : (
        <>
          <section aria-labelledby="inbox-approvals">
            <h2 id="inbox-approvals">Approvals ({current.approvals.length})</h2>
            {current.approvals.length === 0 ? (
              <Empty>No approvals are waiting.</Empty>
            ) : (
              <ul class="cards">
                {current.approvals.map((a) => (
                  <ApprovalCard key={a.id} approval={a} onDone={done} />
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="inbox-incidents">
            <h2 id="inbox-incidents">Budget incidents ({current.incidents.length})</h2>
            {current.incidents.length === 0 ? (
              <Empty>No budget incident is open.</Empty>
            ) : (
              <ul class="cards">
                {current.incidents.map((group) => (
                  <IncidentCard key={group.policyId} group={group} companyId={company.id} onDone={done} />
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="inbox-joins">
            <h2 id="inbox-joins">Join requests ({current.joinRequests.length})</h2>
            {current.joinRequestsHidden ? (
              <Empty>You may not decide join requests in this company.</Empty>
            ) : current.joinRequests.length === 0 ? (
              <Empty>No one is asking to join.</Empty>
            ) : (
              <ul class="cards">
                {current.joinRequests.map((j) => (
                  <JoinRequestCard key={j.id} request={j} companyId={company.id} onDone={done} />
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </>
  );
}

// "Waiting on you": the work assigned to you and every decision the board owes, in one place. The
// questions agents asked you or the board (answered here), what is blocked on you (blocked issues
// assigned to you, issues with a question for you), the open issues assigned to the signed-in
// member, approvals (approve, reject or ask for a revision, with a comment), budget incidents (keep
// the scope paused, or raise its budget and resume) and join requests. The navigation shows the
// same count (lib/inbox.ts).
import { Feedback, useAction } from "../components/action";
import { StatusBadge } from "../components/badges";
import { IssueList } from "../components/issue-list";
import { QuestionCard } from "../components/question-card";
import { ApprovalCard } from "../components/inbox/approval-card";
import { IncidentCard } from "../components/inbox/incident-card";
import { JoinRequestCard } from "../components/inbox/join-request-card";
import { Empty, ErrorMessage, Loading } from "../components/states";
import { companyPath } from "../lib/companies";
import {
  assignedError,
  assignedToYou,
  blockedOnYou,
  inbox,
  inboxError,
  loadAssigned,
  loadInbox,
  loadQuestions,
  loadStopped,
  questionsError,
  questionsForYou,
  stoppedError,
  stoppedForYou,
} from "../lib/inbox";
import { ago, when } from "../lib/format";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

export default function InboxPage({ company }: CompanyPageProps) {
  useTitle("Waiting on you");
  const action = useAction();
  const current = inbox.value?.companyId === company.id ? inbox.value : undefined;
  const assigned = assignedToYou.value?.companyId === company.id ? assignedToYou.value.issues : undefined;
  const questions = questionsForYou.value?.companyId === company.id ? questionsForYou.value.questions : undefined;
  const blocked = blockedOnYou.value?.companyId === company.id ? blockedOnYou.value.issues : undefined;
  const stopped = stoppedForYou.value?.companyId === company.id ? stoppedForYou.value.stopped : undefined;
  const done = (message: string) => action.run(() => loadInbox(company.id), message);
  return (
    <>
      <h1 tabIndex={-1}>Waiting on you</h1>
      <Feedback action={action} />
      <section aria-labelledby="inbox-questions">
        <h2 id="inbox-questions">Questions for you{questions ? ` (${questions.length})` : ""}</h2>
        {questionsError.value && <ErrorMessage message={questionsError.value} retry={() => void loadQuestions(company.id)} />}
        {!questions ? (
          !questionsError.value && <Loading what="questions" />
        ) : questions.length === 0 ? (
          <Empty>No agent is waiting for an answer from you.</Empty>
        ) : (
          <ul class="cards questions">
            {questions.map((q) => (
              <QuestionCard key={q.id} question={q} company={company} onAnswered={() => void loadQuestions(company.id)} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="inbox-blocked">
        <h2 id="inbox-blocked">Blocked on you{blocked ? ` (${blocked.length})` : ""}</h2>
        {!blocked ? (
          !questionsError.value && !assignedError.value && <Loading what="blocked issues" />
        ) : blocked.length === 0 ? (
          <Empty>Nothing is blocked on you.</Empty>
        ) : (
          <ul class="rows issue-list">
            {blocked.map((issue) => (
              <li key={issue.id}>
                <a href={companyPath(company, `issues/${issue.identifier}`)}>
                  <span class="identifier">{issue.identifier}</span> {issue.title}
                </a>{" "}
                <StatusBadge status={issue.status} />{" "}
                <span class="meta">
                  {[
                    issue.assignedBlocked ? "blocked and assigned to you" : "",
                    issue.questions ? `${issue.questions === 1 ? "a question" : `${issue.questions} questions`} for you` : "",
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
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
      <section aria-labelledby="inbox-stopped">
        <h2 id="inbox-stopped">Disabled webhooks and channels{stopped ? ` (${stopped.length})` : ""}</h2>
        {stoppedError.value && <ErrorMessage message={stoppedError.value} retry={() => void loadStopped(company.id)} />}
        {!stopped ? (
          !stoppedError.value && <Loading what="webhooks and channels" />
        ) : stopped.length === 0 ? (
          <Empty>Every webhook and notification channel is working.</Empty>
        ) : (
          <ul class="rows">
            {stopped.map((item) => (
              <li key={item.id}>
                <a href={companyPath(company, item.rest)}>
                  {item.kind === "webhook" ? "Webhook" : "Notification channel"} {item.name}
                </a>{" "}
                <StatusBadge status="disabled" />{" "}
                <span class="meta">
                  {item.reason} ·{" "}
                  <time dateTime={item.at} title={when(item.at)}>
                    {ago(item.at)}
                  </time>
                  . Fix it, then enable it again.
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      {inboxError.value && <ErrorMessage message={inboxError.value} retry={() => void loadInbox(company.id)} />}
      {!current ? (
        !inboxError.value && <Loading what="the inbox" />
      ) : (
        <>
          <section aria-labelledby="inbox-approvals">
            <h2 id="inbox-approvals">Approvals ({current.approvals.length})</h2>
            <p>
              <a href={companyPath(company, "approvals")}>Every approval, decided ones included</a>
            </p>
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

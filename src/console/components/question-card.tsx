// A question an agent asked on an issue: who asked whom, the prompt (markdown), whether it blocks the
// issue, and — while it is open — its answer controls: one button per option and, when it takes a
// written answer, a text box (text typed goes with an option chosen). Answered, it shows the answer
// (also posted on the issue as a comment); a second answer is refused by the API (409), shown as it is.
import { useId, useState } from "preact/hooks";
import { agentName } from "../lib/agents";
import { api, call, type Schemas } from "../lib/api";
import { personName } from "../lib/assignees";
import { type Company, companyPath } from "../lib/companies";
import { ago, when } from "../lib/format";
import { Feedback, useAction } from "./action";
import { StatusBadge } from "./badges";
import { TextArea } from "./fields";
import { Markdown } from "./markdown";

type Question = Schemas["Question"] & { issue?: Schemas["CompanyQuestion"]["issue"] };

const askedWhom = (q: Question) => (q.askedOfUserId ? personName(q.askedOfUserId) : "the board");

export function QuestionCard({ question: q, company, onAnswered }: { question: Question; company: Company; onAnswered: () => void }) {
  const id = useId();
  const action = useAction();
  const [text, setText] = useState("");
  const answer = async (body: { optionId?: string; text?: string }) => {
    const done = await action.run(
      () => call(api.POST("/api/issues/{issueId}/questions/{questionId}/answer", { params: { path: { issueId: q.issueId, questionId: q.id } }, body })),
      "Answered: the answer is posted on the issue and the agent is woken.",
    );
    if (done) setText("");
    onAnswered();
  };
  const typed = text.trim();
  const submit = (event: Event) => {
    event.preventDefault();
    if (typed) void answer({ text: typed });
  };
  return (
    <li class="card question" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {agentName(q.askedByAgentId)} asks {askedWhom(q)}
        {q.issue && (
          <>
            {" "}
            on <span class="identifier">{q.issue.identifier}</span>
          </>
        )}
      </h3>
      <p class="meta">
        <StatusBadge status={q.status} />
        {q.blocksIssue && q.status === "open" ? " · blocks the issue" : ""} · asked{" "}
        <time dateTime={q.createdAt} title={when(q.createdAt)}>
          {ago(q.createdAt)}
        </time>
        {q.issue && (
          <>
            {" · "}
            <a href={companyPath(company, `issues/${q.issue.identifier}`)}>{q.issue.title}</a>
          </>
        )}
      </p>
      <Markdown source={q.prompt} />
      {q.status === "answered" && q.answer ? (
        <div class="answer">
          <p>
            <strong>Answer{q.answer.answeredByUserId ? ` from ${personName(q.answer.answeredByUserId)}` : ""}:</strong>{" "}
            {q.answer.optionLabel && <span class="badge">{q.answer.optionLabel}</span>} {q.answer.text}
          </p>
          {q.answer.answeredAt && (
            <p class="meta">
              <time dateTime={q.answer.answeredAt} title={when(q.answer.answeredAt)}>
                {ago(q.answer.answeredAt)}
              </time>{" "}
              · posted as a comment
            </p>
          )}
        </div>
      ) : q.status === "open" ? (
        <form class="stack" onSubmit={submit} aria-label={`Answer ${agentName(q.askedByAgentId)}'s question`}>
          {q.options.length > 0 && (
            <fieldset class="actions options">
              <legend class="visually-hidden">Options</legend>
              {q.options.map((o) => (
                <button
                  key={o.id}
                  type="button"
                  disabled={action.busy}
                  onClick={() => void answer(typed && q.allowFreeText ? { optionId: o.id, text: typed } : { optionId: o.id })}
                >
                  {o.label}
                </button>
              ))}
            </fieldset>
          )}
          {q.allowFreeText && (
            <>
              <TextArea
                label="Your answer"
                rows={3}
                value={text}
                onInput={(e) => setText(e.currentTarget.value)}
                hint={q.options.length ? "Markdown. Sent with the option you choose, or alone." : "Markdown."}
              />
              <div class="actions">
                <button type="submit" class="primary" disabled={action.busy || !typed}>
                  Send answer
                </button>
              </div>
            </>
          )}
        </form>
      ) : (
        <p class="meta">Cancelled{q.cancelledAt ? ` ${ago(q.cancelledAt)}` : ""}: it needs no answer.</p>
      )}
      <Feedback action={action} />
    </li>
  );
}

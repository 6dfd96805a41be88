// The questions agents asked on an issue (GET /api/issues/{id}/questions): the open ones first
// (oldest first: they have waited longest), then the answered and cancelled ones, newest first;
// each answerable in place. Follows the issue's question events.
import { api, call, type Schemas } from "../../lib/api";
import type { Company } from "../../lib/companies";
import { useResource } from "../../lib/resource";
import { QuestionCard } from "../question-card";
import { Async } from "../states";

type Question = Schemas["Question"];

export function openFirst(list: Question[]): Question[] {
  const open = list.filter((q) => q.status === "open").sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const rest = list.filter((q) => q.status !== "open").sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return [...open, ...rest];
}

export function IssueQuestions({ issueId, company }: { issueId: string; company: Company }) {
  const questions = useResource(async () => openFirst(await call(api.GET("/api/issues/{issueId}/questions", { params: { path: { issueId } } }))), [issueId], {
    types: ["question.*"],
    when: (event) => (event.data as { issueId?: string } | undefined)?.issueId === issueId,
  });
  const open = questions.data?.filter((q) => q.status === "open").length ?? 0;
  return (
    <section aria-labelledby="issue-questions">
      <h2 id="issue-questions">Questions{open ? ` (${open} open)` : ""}</h2>
      <Async resource={questions} what="questions" empty="No agent has asked a question here.">
        {(list) => (
          <ul class="question-list">
            {list.map((q) => (
              <QuestionCard key={q.id} question={q} company={company} onAnswered={() => void questions.reload()} />
            ))}
          </ul>
        )}
      </Async>
    </section>
  );
}

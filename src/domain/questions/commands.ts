// Questions agents ask people. The issue's assignee agent asks (with its key, in a run or not);
// `blocksIssue` sets the issue `blocked` until the question is answered or cancelled, then the
// issue returns to the status it had before (when no other open question still blocks it). A board
// member answers once (a second answer is 409): the answer is recorded, posted on the issue as the
// answerer's comment — which wakes no one — and the asking agent is woken once, with reason
// `question_answered` and the answer in its context. The asking agent (or the board) cancels an
// open question.
import { and, eq, ne } from "drizzle-orm";
import type { Statement } from "../../db/batch";
import { schema } from "../../db/client";
import { rowExists, sameVersion } from "../../db/guards";
import { defineCommand, type CommandContext } from "../../company/command";
import type { Actor } from "../actor";
import { conflict, forbidden, notFound, unprocessable } from "../errors";
import { newId } from "../../crypto/random";
import { loadIssueInCompany } from "../issues/load";
import { isTerminalStatus, type IssueRow } from "../issues/view";
import { wakeupStatements } from "../wakeups/enqueue";
import type { QuestionOption } from "../../db/schema/questions";
import { questionView, type QuestionRow } from "./view";

export interface AskQuestionInput {
  issueId: string;
  prompt: string;
  options?: QuestionOption[];
  allowFreeText?: boolean;
  askedOfUserId?: string | null;
  blocksIssue?: boolean;
}

async function loadQuestion(ctx: CommandContext, issueId: string, questionId: string): Promise<QuestionRow> {
  const q = schema.issueQuestions;
  const [row] = await ctx.db
    .select()
    .from(q)
    .where(and(eq(q.id, questionId), eq(q.issueId, issueId), eq(q.companyId, ctx.companyId)));
  if (!row) throw notFound("Question not found");
  return row;
}

/** The other open questions blocking the issue (the first one's statusBefore is the issue's status before any of them). */
async function otherBlockingQuestions(ctx: CommandContext, issueId: string, exceptId: string | null) {
  const q = schema.issueQuestions;
  return ctx.db
    .select({ id: q.id, statusBefore: q.statusBefore, createdAt: q.createdAt })
    .from(q)
    .where(and(eq(q.issueId, issueId), eq(q.status, "open"), eq(q.blocksIssue, true), exceptId ? ne(q.id, exceptId) : undefined));
}

/** The issue back to its status before the question, if it still is `blocked` and nothing else blocks it. */
async function unblockStatements(ctx: CommandContext, question: QuestionRow, issue: IssueRow): Promise<Statement[]> {
  if (!question.blocksIssue || issue.status !== "blocked" || !question.statusBefore || question.statusBefore === "blocked") return [];
  if ((await otherBlockingQuestions(ctx, issue.id, question.id)).length) return [];
  return [
    ctx.guard(sameVersion(schema.issues, issue)),
    ctx.db
      .update(schema.issues)
      .set({ status: question.statusBefore as IssueRow["status"], updatedAt: ctx.now })
      .where(eq(schema.issues.id, issue.id)),
    ctx.activity({
      action: "issue.updated",
      entityType: "issue",
      entityId: issue.id,
      details: { identifier: issue.identifier, changes: { status: { from: "blocked", to: question.statusBefore } }, questionId: question.id },
    }),
  ];
}

export const askQuestion = defineCommand("question.ask", async (ctx, actor, input: AskQuestionInput) => {
  if (actor.type !== "agent") throw forbidden("Only the issue's assignee agent asks questions on it (with its key)");
  const issue = await loadIssueInCompany(ctx.db, ctx.companyId, input.issueId);
  if (issue.assigneeAgentId !== actor.agentId)
    throw forbidden("Only the issue's assignee agent may ask a question on it", { assigneeAgentId: issue.assigneeAgentId });
  const options = input.options ?? [];
  const allowFreeText = input.allowFreeText ?? options.length === 0;
  if (!options.length && !allowFreeText) throw unprocessable("A question without options must allow a free-text answer", { field: "allowFreeText" });
  if (input.askedOfUserId) {
    const m = schema.companyMemberships;
    const [member] = await ctx.db
      .select({ id: m.id })
      .from(m)
      .where(and(eq(m.companyId, ctx.companyId), eq(m.principalType, "user"), eq(m.principalId, input.askedOfUserId), eq(m.status, "active")));
    if (!member) throw unprocessable("askedOfUserId is not an active member of this company", { field: "askedOfUserId" });
  }
  const blocks = Boolean(input.blocksIssue);
  if (blocks && isTerminalStatus(issue.status)) throw unprocessable(`The issue is ${issue.status}: a question cannot block it`, { field: "blocksIssue" });
  // A second blocking question keeps the first one's "before" (so the last answer restores it).
  const earlier =
    blocks && issue.status === "blocked" ? (await otherBlockingQuestions(ctx, issue.id, null)).sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0] : null;
  const row: QuestionRow = {
    id: newId(),
    companyId: ctx.companyId,
    issueId: issue.id,
    askedByAgentId: actor.agentId,
    runId: actor.runId ?? null,
    askedOfUserId: input.askedOfUserId ?? null,
    prompt: input.prompt,
    options,
    allowFreeText,
    blocksIssue: blocks,
    statusBefore: blocks ? (earlier?.statusBefore ?? issue.status) : null,
    status: "open",
    answerOptionId: null,
    answerText: null,
    answeredByUserId: null,
    answeredAt: null,
    answerCommentId: null,
    cancelledAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  const statements: Statement[] = [ctx.guard(sameVersion(schema.issues, issue)), ctx.db.insert(schema.issueQuestions).values(row)];
  if (blocks && issue.status !== "blocked") {
    statements.push(
      ctx.db.update(schema.issues).set({ status: "blocked", updatedAt: ctx.now }).where(eq(schema.issues.id, issue.id)),
      ctx.activity({
        action: "issue.updated",
        entityType: "issue",
        entityId: issue.id,
        details: { identifier: issue.identifier, changes: { status: { from: issue.status, to: "blocked" } }, questionId: row.id },
      }),
    );
  }
  statements.push(
    ctx.activity({
      action: "question.asked",
      entityType: "issue_question",
      entityId: row.id,
      agentId: actor.agentId,
      details: {
        issueId: issue.id,
        identifier: issue.identifier,
        askedOfUserId: row.askedOfUserId,
        blocksIssue: blocks,
        options: options.length,
        prompt: row.prompt.slice(0, 200),
      },
    }),
  );
  await ctx.batch(statements);
  return questionView(row);
});

export interface AnswerQuestionInput {
  issueId: string;
  questionId: string;
  optionId?: string | null;
  text?: string | null;
}

/** The comment an answer is posted as. */
function answerComment(question: QuestionRow, option: QuestionOption | null, text: string | null): string {
  const quoted = question.prompt
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
  return [`**Answer to the question**\n\n${quoted}`, option ? `**${option.label}**` : null, text].filter(Boolean).join("\n\n");
}

export const answerQuestion = defineCommand("question.answer", async (ctx, actor, input: AnswerQuestionInput) => {
  if (actor.type !== "board") throw forbidden("Questions are answered by board members");
  const question = await loadQuestion(ctx, input.issueId, input.questionId);
  if (question.status !== "open")
    throw conflict(`The question is already ${question.status}`, { status: question.status, answeredByUserId: question.answeredByUserId });
  const option = input.optionId ? (question.options.find((o) => o.id === input.optionId) ?? null) : null;
  if (input.optionId && !option)
    throw unprocessable(`optionId must be one of the question's options: ${question.options.map((o) => o.id).join(", ")}`, { field: "optionId" });
  const text = input.text?.trim() || null;
  if (text && !question.allowFreeText && !option)
    throw unprocessable("This question takes one of its options (optionId), not free text", { field: "optionId" });
  if (!option && !text) throw unprocessable("Answer with optionId or text", { field: "optionId" });
  const issue = await loadIssueInCompany(ctx.db, ctx.companyId, question.issueId);
  const commentId = newId();
  const answer = { optionId: option?.id ?? null, optionLabel: option?.label ?? null, text };
  const q = schema.issueQuestions;
  const statements: Statement[] = [
    // One answer wins: written only while the question is still open.
    ctx.guard(rowExists(q, { id: question.id, status: "open" })),
    ctx.db
      .update(q)
      .set({
        status: "answered",
        answerOptionId: answer.optionId,
        answerText: text,
        answeredByUserId: actor.userId,
        answeredAt: ctx.now,
        answerCommentId: commentId,
        updatedAt: ctx.now,
      })
      .where(eq(q.id, question.id)),
    // Posted as the answerer's comment; no comment wake (the asking agent is woken once, below).
    ctx.db.insert(schema.issueComments).values({
      id: commentId,
      companyId: ctx.companyId,
      issueId: issue.id,
      body: answerComment(question, option, text),
      authorAgentId: null,
      authorUserId: actor.userId,
      runId: null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    }),
    ...(await unblockStatements(ctx, question, issue)),
    ...(
      await wakeupStatements(ctx, actor, [
        {
          agentId: question.askedByAgentId,
          reason: "question_answered",
          source: "issue_question",
          issueId: issue.id,
          context: {
            issueId: issue.id,
            identifier: issue.identifier,
            questionId: question.id,
            question: question.prompt,
            answer,
            wakeCommentId: commentId,
            env: { SERVICE_QUESTION_ID: question.id },
          },
        },
      ])
    ).statements,
    ctx.activity({
      action: "issue.comment_added",
      entityType: "issue",
      entityId: issue.id,
      details: { identifier: issue.identifier, commentId, questionId: question.id },
    }),
    ctx.activity({
      action: "question.answered",
      entityType: "issue_question",
      entityId: question.id,
      agentId: question.askedByAgentId,
      details: { issueId: issue.id, identifier: issue.identifier, optionId: answer.optionId, commentId, answeredByUserId: actor.userId },
    }),
  ];
  await ctx.batch(statements);
  return questionView({
    ...question,
    status: "answered",
    answerOptionId: answer.optionId,
    answerText: text,
    answeredByUserId: actor.userId,
    answeredAt: ctx.now,
    answerCommentId: commentId,
    updatedAt: ctx.now,
  });
});

export const cancelQuestion = defineCommand("question.cancel", async (ctx, actor: Actor, input: { issueId: string; questionId: string }) => {
  const question = await loadQuestion(ctx, input.issueId, input.questionId);
  if (actor.type === "agent" && actor.agentId !== question.askedByAgentId) throw forbidden("Only the agent that asked may cancel its question");
  if (actor.type === "none") throw forbidden("Authentication required");
  if (question.status !== "open") throw conflict(`The question is already ${question.status}`, { status: question.status });
  const issue = await loadIssueInCompany(ctx.db, ctx.companyId, question.issueId);
  const q = schema.issueQuestions;
  await ctx.batch([
    ctx.guard(rowExists(q, { id: question.id, status: "open" })),
    ctx.db.update(q).set({ status: "cancelled", cancelledAt: ctx.now, updatedAt: ctx.now }).where(eq(q.id, question.id)),
    ...(await unblockStatements(ctx, question, issue)),
    ctx.activity({
      action: "question.cancelled",
      entityType: "issue_question",
      entityId: question.id,
      agentId: question.askedByAgentId,
      details: { issueId: issue.id, identifier: issue.identifier },
    }),
  ]);
  return questionView({ ...question, status: "cancelled", cancelledAt: ctx.now, updatedAt: ctx.now });
});

export const questionCommands = [askQuestion, answerQuestion, cancelQuestion];

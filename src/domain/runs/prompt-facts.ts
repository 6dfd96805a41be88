// What the prompt of a run is built from (src/domain/runs/prompt.ts), read in one batch: the agent,
// its company, the issue, the comments on the issue since the agent's previous run on it, and the
// approval an approval wake is about (plus, when people commented, their names from the directory).
import { and, desc, eq, gt, lt, ne } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import type { RunRow } from "./lifecycle";
import { MAX_COMMENTS, type PromptFacts } from "./prompt";
import { agentContext } from "./invocation";
import { inIds } from "../../db/id-list";

const str = (v: unknown) => (typeof v === "string" && v ? v : null);

export async function loadPromptFacts(db: Db, run: RunRow, apiUrl: string): Promise<PromptFacts> {
  const { context } = agentContext(run);
  const approvalId = str(context.approvalId);
  const r = schema.heartbeatRuns;
  const c = schema.issueComments;
  const [agents, companies, issues, previous, approvals] = await db.batch([
    db
      .select({
        id: schema.agents.id,
        name: schema.agents.name,
        role: schema.agents.role,
        title: schema.agents.title,
        capabilities: schema.agents.capabilities,
      })
      .from(schema.agents)
      .where(eq(schema.agents.id, run.agentId)),
    db.select({ id: schema.companies.id, name: schema.companies.name }).from(schema.companies).where(eq(schema.companies.id, run.companyId)),
    db
      .select({
        id: schema.issues.id,
        identifier: schema.issues.identifier,
        title: schema.issues.title,
        description: schema.issues.description,
        status: schema.issues.status,
        priority: schema.issues.priority,
      })
      .from(schema.issues)
      .where(and(eq(schema.issues.id, run.issueId ?? "-"), eq(schema.issues.companyId, run.companyId))),
    // The agent's previous run on this issue: comments after it started are new to the agent.
    db
      .select({ createdAt: r.createdAt })
      .from(r)
      .where(and(eq(r.agentId, run.agentId), eq(r.issueId, run.issueId ?? "-"), ne(r.id, run.id), lt(r.createdAt, run.createdAt)))
      .orderBy(desc(r.createdAt))
      .limit(1),
    db
      .select({ id: schema.approvals.id, type: schema.approvals.type, status: schema.approvals.status, decisionNote: schema.approvals.decisionNote })
      .from(schema.approvals)
      .where(and(eq(schema.approvals.id, approvalId ?? "-"), eq(schema.approvals.companyId, run.companyId))),
  ]);
  const since = previous[0]?.createdAt ?? "";
  const comments = run.issueId
    ? await db
        .select({ id: c.id, body: c.body, authorAgentId: c.authorAgentId, authorUserId: c.authorUserId, createdAt: c.createdAt, agentName: schema.agents.name })
        .from(c)
        .leftJoin(schema.agents, eq(schema.agents.id, c.authorAgentId))
        .where(and(eq(c.issueId, run.issueId), eq(c.companyId, run.companyId), gt(c.createdAt, since)))
        .orderBy(desc(c.createdAt), desc(c.id))
        .limit(MAX_COMMENTS + 1)
    : [];
  const shown = comments.slice(0, MAX_COMMENTS).reverse();
  const userIds = [...new Set(shown.map((x) => x.authorUserId).filter((id): id is string => !!id))];
  const users = userIds.length
    ? await db.select({ id: schema.users.id, name: schema.users.name }).from(schema.users).where(inIds(schema.users.id, userIds))
    : [];
  const userName = new Map(users.map((u) => [u.id, u.name]));
  const agent = agents[0];
  return {
    agent: {
      id: run.agentId,
      name: agent?.name ?? "an agent",
      role: agent?.role ?? "general",
      title: agent?.title ?? null,
      capabilities: agent?.capabilities ?? null,
    },
    company: { id: run.companyId, name: companies[0]?.name ?? "the company" },
    run: { id: run.id, reason: run.reason, invocationSource: run.invocationSource, context },
    issue: issues[0] ?? null,
    comments: shown.map((x) => ({
      id: x.id,
      author: x.authorAgentId
        ? `${x.authorAgentId === run.agentId ? "you" : `agent ${x.agentName ?? x.authorAgentId}`}`
        : `${userName.get(x.authorUserId ?? "") ?? "a board member"} (board)`,
      createdAt: x.createdAt,
      body: x.body,
    })),
    olderCommentsOmitted: comments.length > MAX_COMMENTS,
    approval: approvals[0] ?? null,
    apiUrl,
  };
}

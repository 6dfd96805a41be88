// Issues: issues/<identifier>.md (id, identifier, title, status, priority, parentId, projectId,
// goalId, assigneeAgentId, blockedByIssueIds, labelIds, originKind, originId; body: description)
// with their comments and documents (./comments.ts, ./documents.ts). Exported in pages of
// ISSUE_PAGE, so a company of 10,000 issues is never loaded in one query; imported issues take
// their numbers from the target's counter.
import { and, asc, eq, gt } from "drizzle-orm";
import { z } from "zod";
import { schema } from "../../../db/client";
import type { Statement } from "../../../db/batch";
import { inIds } from "../../../db/id-list";
import { ReadBatch } from "../../../db/read-batch";
import { ISSUE_PRIORITIES, ISSUE_STATUSES } from "../../../db/schema/issues";
import { ISSUE_TITLE_MAX } from "../../issues/limits";
import { issueInsert, newIssueRow } from "../../issues/commands";
import { commitIssueNumber, companyCounterStatement, issueNumbering } from "../../issues/numbering";
import { markdownWith } from "../format";
import { createdIds, defineKind, parentsFirst } from "./kind";
import { comments, type PkgComment } from "./comments";
import { documents, type PkgDocument } from "./documents";
import { id, MANY, nullableId } from "./fields";

const ISSUE_PAGE = 500;
const PARTS = [comments, documents] as const;

const IssueSchema = z.object({
  id,
  // Informational (the target numbers issues itself); prefixes from before the 10-character rule may be long.
  identifier: z.string().nullish(),
  title: z.string().trim().min(1).max(ISSUE_TITLE_MAX),
  status: z.enum(ISSUE_STATUSES),
  priority: z.enum(ISSUE_PRIORITIES),
  parentId: nullableId,
  projectId: nullableId,
  goalId: nullableId,
  assigneeAgentId: nullableId,
  blockedByIssueIds: z
    .array(id)
    .max(MANY)
    .nullish()
    .transform((v) => v ?? []),
  labelIds: z
    .array(id)
    .max(MANY)
    .nullish()
    .transform((v) => v ?? []),
  originKind: z.string().max(100).nullish(),
  originId: nullableId,
});

export type PkgIssue = z.infer<typeof IssueSchema> & { path: string; description: string | null; comments: PkgComment[]; documents: PkgDocument[] };

export const issues = defineKind<PkgIssue[]>({
  key: "issues",
  noun: "issue",
  references: [
    { field: "parentId", to: "issues" },
    { field: "projectId", to: "projects" },
    { field: "goalId", to: "goals" },
    { field: "assigneeAgentId", to: "agents" },
    { field: "blockedByIssueIds", to: "issues" },
    { field: "labelIds", to: "labels" },
  ],
  parent: "parentId",
  // Every issue of the company, read page by page when the files are written.
  exportPart: () => ({
    async write(ctx) {
      const { db, companyId, counts } = ctx;
      counts.issues = 0;
      counts.comments = 0;
      counts.documents = 0;
      for (let after = ""; ; ) {
        const page = await db
          .select()
          .from(schema.issues)
          .where(and(eq(schema.issues.companyId, companyId), gt(schema.issues.id, after)))
          .orderBy(asc(schema.issues.id))
          .limit(ISSUE_PAGE);
        if (!page.length) break;
        after = page[page.length - 1].id;
        const issueIds = page.map((i) => i.id);
        const batch = new ReadBatch(db);
        const blockers = batch.add(db.select().from(schema.issueBlockers).where(inIds(schema.issueBlockers.issueId, issueIds)));
        const issueLabels = batch.add(db.select().from(schema.issueLabels).where(inIds(schema.issueLabels.issueId, issueIds)));
        const parts = PARTS.filter((part) => ctx.include[part.key]).map((part) => part.exportPage({ db, batch, issueIds }));
        await batch.run();
        for (const issue of page) {
          counts.issues++;
          const base = `issues/${issue.identifier}`;
          ctx.put(
            `${base}.md`,
            markdownWith(
              {
                id: issue.id,
                identifier: issue.identifier,
                title: issue.title,
                status: issue.status,
                priority: issue.priority,
                parentId: issue.parentId,
                projectId: ctx.held("projects", issue.projectId),
                goalId: ctx.held("goals", issue.goalId),
                assigneeAgentId: ctx.held("agents", issue.assigneeAgentId),
                blockedByIssueIds: blockers.value.filter((b) => b.issueId === issue.id).map((b) => b.blockerIssueId),
                labelIds: ctx.heldAll(
                  "labels",
                  issueLabels.value.filter((l) => l.issueId === issue.id).map((l) => l.labelId),
                ),
                originKind: issue.originKind,
                originId: issue.originId,
              },
              issue.description,
            ),
          );
          for (const part of parts) part.write(ctx, issue.id, base);
        }
        if (page.length < ISSUE_PAGE) break;
      }
    },
  }),
  parse: (pkg) =>
    pkg.under("issues", ".md").map((path): PkgIssue => {
      const { fields, body } = pkg.markdown(path);
      const base = path.slice(0, -3);
      const issueComments = comments.parse(pkg, base);
      const issueDocuments = documents.parse(pkg, base);
      return { ...pkg.check(IssueSchema, fields, path), path, description: pkg.bounded(body, path), comments: issueComments, documents: issueDocuments };
    }),
  async apply(ctx, items) {
    const { command, plan } = ctx;
    // Numbers from the object's counter, parents first; blockers, labels, comments and documents
    // after every issue (a blocker may come later in the package).
    const numbering = await issueNumbering(command);
    let number = numbering.next - 1;
    const children: Statement[] = [];
    for (const issue of parentsFirst(items, (i) => i.parentId)) {
      number++;
      const issueId = plan.ids.issues.get(issue.id)!;
      const routineOrigin = issue.originKind === "routine_execution" ? ctx.map("routines", issue.originId) : null;
      const row = newIssueRow(
        command,
        { type: "none", runId: null },
        {
          id: issueId,
          number,
          identifier: `${numbering.prefix}-${number}`,
          title: issue.title,
          description: issue.description,
          status: issue.status,
          priority: issue.priority,
          projectId: ctx.map("projects", issue.projectId),
          goalId: ctx.map("goals", issue.goalId),
          parentId: ctx.map("issues", issue.parentId),
          assigneeAgentId: ctx.map("agents", issue.assigneeAgentId),
          originKind: routineOrigin ? "routine_execution" : issue.originKind && issue.originKind !== "routine_execution" ? issue.originKind : "manual",
          originId: routineOrigin ?? (issue.originKind === "routine_execution" ? null : (issue.originId ?? null)),
        },
      );
      ctx.statements.push(issueInsert(command.db, row));
      for (const blocker of issue.blockedByIssueIds)
        children.push(
          command.db
            .insert(schema.issueBlockers)
            .values({ issueId, blockerIssueId: plan.ids.issues.get(blocker)!, companyId: command.companyId, createdAt: command.now }),
        );
      for (const label of issue.labelIds)
        children.push(command.db.insert(schema.issueLabels).values({ issueId, labelId: plan.ids.labels.get(label)!, companyId: command.companyId }));
      children.push(...comments.apply(ctx, issueId, issue.comments), ...documents.apply(ctx, issueId, issue.documents));
    }
    ctx.statements.push(...children);
    if (!items.length) return;
    ctx.closing.push(companyCounterStatement(command, number));
    ctx.afterWrite.push(() => commitIssueNumber(command, number));
  },
  undo: (ctx, plan) => ctx.db.delete(schema.issues).where(and(eq(schema.issues.companyId, ctx.companyId), inIds(schema.issues.id, createdIds(plan, "issues")))),
});

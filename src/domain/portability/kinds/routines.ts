// Routines: routines/<id>.md (id, title, assigneeAgentId, projectId, goalId, parentIssueId,
// priority, status, concurrencyPolicy, catchUpPolicy, variables, triggers; body: description).
// Webhook secrets and public ids never leave: an imported webhook trigger gets new ones.
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { schema } from "../../../db/client";
import { inIds } from "../../../db/id-list";
import { newId } from "../../../crypto/random";
import { ISSUE_PRIORITIES } from "../../../db/schema/issues";
import { CATCH_UP_POLICIES, CONCURRENCY_POLICIES, ROUTINE_STATUSES, SIGNING_MODES, TRIGGER_KINDS } from "../../../db/schema/routines";
import { compileSchedule, DEFAULT_TIMEZONE, nextSlot } from "../../routines/schedule";
import { newPublicId, newWebhookSecret, sealWebhookSecret } from "../../routines/webhook-signature";
import { markdownWith } from "../format";
import { createdIds, defineKind } from "./kind";
import { id, nullableId, text } from "./fields";

/** The longest routine title (an import's renames stay within it). */
export const ROUTINE_TITLE_MAX = 500;

const TriggerSchema = z.object({
  kind: z.enum(TRIGGER_KINDS),
  label: text(200),
  enabled: z.boolean(),
  cronExpression: text(200),
  timezone: text(100),
  signingMode: z.enum(SIGNING_MODES).nullish(),
  replayWindowSec: z.number().int().min(30).max(86_400).nullish(),
});
const RoutineSchema = z.object({
  id,
  title: z.string().trim().min(1).max(ROUTINE_TITLE_MAX),
  assigneeAgentId: nullableId,
  projectId: nullableId,
  goalId: nullableId,
  parentIssueId: nullableId,
  priority: z.enum(ISSUE_PRIORITIES),
  status: z.enum(ROUTINE_STATUSES),
  concurrencyPolicy: z.enum(CONCURRENCY_POLICIES),
  catchUpPolicy: z.enum(CATCH_UP_POLICIES),
  variables: z
    .array(
      z.object({
        name: z.string(),
        label: z.string().nullish(),
        type: z.string(),
        required: z.boolean(),
        defaultValue: z.union([z.string(), z.number(), z.boolean()]).nullish(),
      }),
    )
    .max(50)
    .nullish()
    .transform((v) => v ?? []),
  triggers: z
    .array(TriggerSchema)
    .max(1000)
    .nullish()
    .transform((v) => v ?? []),
});

export type PkgRoutine = z.infer<typeof RoutineSchema> & { path: string; description: string | null };

export const routines = defineKind<PkgRoutine[]>({
  key: "routines",
  noun: "routine",
  references: [
    { field: "assigneeAgentId", to: "agents" },
    { field: "projectId", to: "projects" },
    { field: "goalId", to: "goals" },
    { field: "parentIssueId", to: "issues" },
  ],
  exportPart({ db, companyId, batch }) {
    const rows = batch.add(db.select().from(schema.routines).where(eq(schema.routines.companyId, companyId)).orderBy(asc(schema.routines.createdAt)));
    const triggers = batch.add(
      db.select().from(schema.routineTriggers).where(eq(schema.routineTriggers.companyId, companyId)).orderBy(asc(schema.routineTriggers.createdAt)),
    );
    return {
      write(ctx) {
        ctx.counts.routines = rows.value.length;
        for (const routine of rows.value) {
          ctx.put(
            ctx.uniquePath("routines", routine.id, ".md"),
            markdownWith(
              {
                id: routine.id,
                title: routine.title,
                assigneeAgentId: ctx.held("agents", routine.assigneeAgentId),
                projectId: ctx.held("projects", routine.projectId),
                goalId: ctx.held("goals", routine.goalId),
                parentIssueId: ctx.held("issues", routine.parentIssueId),
                priority: routine.priority,
                status: routine.status,
                concurrencyPolicy: routine.concurrencyPolicy,
                catchUpPolicy: routine.catchUpPolicy,
                variables: routine.variables,
                // Webhook secrets and public ids are never exported: the importer gets new ones.
                triggers: triggers.value
                  .filter((t) => t.routineId === routine.id)
                  .map((t) => ({
                    kind: t.kind,
                    label: t.label,
                    enabled: t.enabled,
                    cronExpression: t.cronExpression,
                    timezone: t.timezone,
                    signingMode: t.signingMode,
                    replayWindowSec: t.replayWindowSec,
                  })),
              },
              routine.description,
            ),
          );
        }
      },
    };
  },
  parse: (pkg) =>
    pkg.under("routines", ".md").map((path) => {
      const { fields, body } = pkg.markdown(path);
      return { ...pkg.check(RoutineSchema, fields, path), path, description: pkg.bounded(body, path) };
    }),
  async apply(ctx, items) {
    const { command, plan, at } = ctx;
    const now = command.now;
    const sealed: Array<Promise<void>> = [];
    for (const routine of items.filter((r) => plan.create.routines.has(r.id))) {
      const routineId = plan.ids.routines.get(routine.id)!;
      const assignee = ctx.map("agents", routine.assigneeAgentId);
      // A routine nobody would run is paused.
      const status = assignee ? routine.status : routine.status === "active" ? "paused" : routine.status;
      ctx.statements.push(
        command.db.insert(schema.routines).values({
          id: routineId,
          companyId: command.companyId,
          title: plan.names.get(routine.id)!,
          description: routine.description,
          assigneeAgentId: assignee,
          projectId: ctx.map("projects", routine.projectId),
          goalId: ctx.map("goals", routine.goalId),
          parentIssueId: ctx.map("issues", routine.parentIssueId),
          priority: routine.priority,
          status,
          concurrencyPolicy: routine.concurrencyPolicy,
          catchUpPolicy: routine.catchUpPolicy,
          variables: routine.variables.map((v) => ({ ...v, label: v.label ?? null, defaultValue: v.defaultValue ?? null })),
          version: 0,
          ...at,
        }),
      );
      for (const trigger of routine.triggers) {
        const triggerId = newId();
        const schedule =
          trigger.kind === "schedule" && trigger.cronExpression ? compileSchedule(trigger.cronExpression, trigger.timezone ?? DEFAULT_TIMEZONE) : null;
        const row = {
          id: triggerId,
          companyId: command.companyId,
          routineId,
          kind: trigger.kind,
          label: trigger.label,
          enabled: trigger.enabled,
          cronExpression: trigger.cronExpression,
          timezone: trigger.kind === "schedule" ? (trigger.timezone ?? DEFAULT_TIMEZONE) : null,
          nextRunAt: schedule && trigger.enabled && status === "active" ? nextSlot(schedule, new Date(now)) : null,
          signingMode: trigger.kind === "webhook" ? (trigger.signingMode ?? "bearer") : null,
          replayWindowSec: trigger.kind === "webhook" ? (trigger.replayWindowSec ?? 300) : null,
          // Webhooks get a new public id and secret (never exported): rotate the secret to read it.
          publicId: trigger.kind === "webhook" ? newPublicId() : null,
          secretCiphertext: null as string | null,
          secretVersion: 0,
          ...at,
        };
        if (trigger.kind === "webhook") {
          const sealing = sealWebhookSecret(command.env, triggerId, 0, newWebhookSecret()).then((secret) => {
            row.secretCiphertext = secret;
          });
          sealed.push(sealing);
        }
        ctx.statements.push(command.db.insert(schema.routineTriggers).values(row));
      }
    }
    await Promise.all(sealed);
  },
  undo: (ctx, plan) =>
    ctx.db.delete(schema.routines).where(and(eq(schema.routines.companyId, ctx.companyId), inIds(schema.routines.id, createdIds(plan, "routines")))),
});

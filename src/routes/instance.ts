// Instance: scheduler heartbeats, general and experimental settings, issue-graph liveness
// recovery (preview/run) and database backups to R2.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireBoard, requireInstanceAdmin } from "../http/access";
import { patchSettings, readSettings } from "../domain/instance/settings";
import { listSchedulerHeartbeats, livenessRecoveryRequest } from "../domain/instance/maintenance";
import { runDatabaseBackup } from "../domain/instance/backups";
import { errors, jsonBody, jsonContent, optionalJsonBody } from "../schemas/common";
import {
  DatabaseBackupSchema,
  ExperimentalSettingsSchema,
  GeneralSettingsSchema,
  LivenessRecoveryRequestSchema,
  LivenessRecoveryResultSchema,
  PatchExperimentalSettingsSchema,
  PatchGeneralSettingsSchema,
  SchedulerHeartbeatSchema,
} from "../schemas/instance";

const tags = ["Instance"];
export const instanceRouter = createRouter();

instanceRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/instance/scheduler-heartbeats",
    tags,
    summary: "Scheduler heartbeats written by the per-minute cron (board)",
    responses: { 200: jsonContent(z.array(SchedulerHeartbeatSchema), "Heartbeats"), ...errors(401, 403) },
  }),
  async (c) => {
    requireBoard(c);
    return c.json(await listSchedulerHeartbeats(dbOf(c)), 200);
  },
);

for (const key of ["general", "experimental"] as const) {
  const full = key === "general" ? GeneralSettingsSchema : ExperimentalSettingsSchema;
  const partial = key === "general" ? PatchGeneralSettingsSchema : PatchExperimentalSettingsSchema;
  instanceRouter.openapi(
    createRoute({
      method: "get",
      path: `/api/instance/settings/${key}`,
      tags,
      summary: `The ${key} instance settings, defaults filled in (any board caller)`,
      responses: { 200: jsonContent(full, "Settings"), ...errors(401, 403) },
    }),
    async (c) => {
      requireBoard(c);
      return c.json(await readSettings(dbOf(c), key), 200);
    },
  );
  instanceRouter.openapi(
    createRoute({
      method: "patch",
      path: `/api/instance/settings/${key}`,
      tags,
      summary: `Change some ${key} settings (instance admin); unknown keys are rejected`,
      request: { body: jsonBody(partial) },
      responses: { 200: jsonContent(full, "Settings after the change"), ...errors(400, 401, 403) },
    }),
    async (c) => {
      requireInstanceAdmin(c);
      const body = c.req.valid("json") as Record<string, unknown>;
      return c.json(await patchSettings(dbOf(c), key, body as never), 200);
    },
  );
}

for (const mode of ["preview", "run"] as const) {
  instanceRouter.openapi(
    createRoute({
      method: "post",
      path: `/api/instance/settings/experimental/issue-graph-liveness-auto-recovery/${mode}`,
      tags,
      summary:
        mode === "preview"
          ? "Dry run: in_progress issues whose checkout run is missing, finished (succeeded/failed/cancelled/timed_out) or idle past staleAfterMinutes (instance admin)"
          : "Release those issues to todo, clearing the assignee agent and every lock field, one statement per company; logs issue.liveness_recovered (instance admin)",
      description: "Body optional: { companyId?, staleAfterMinutes? } (default staleAfterMinutes: the experimental setting, 60). At most 500 issues per call.",
      request: { body: optionalJsonBody(LivenessRecoveryRequestSchema) },
      responses: { 200: jsonContent(LivenessRecoveryResultSchema, mode === "preview" ? "Stuck issues" : "Released issues"), ...errors(400, 401, 403, 404) },
    }),
    async (c) => c.json(await livenessRecoveryRequest(c.env, requireInstanceAdmin(c), c.req.valid("json"), mode === "preview"), 200),
  );
}

instanceRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/instance/database-backups",
    tags,
    summary: "Back up every D1 table as JSON lines into R2 under backups/<timestamp>/ with a manifest, then apply retention (instance admin)",
    description: "Retention keeps the newest general.backupRetentionCount (default 7) backup folders and deletes older ones.",
    responses: { 201: jsonContent(DatabaseBackupSchema, "The backup"), ...errors(401, 403) },
  }),
  async (c) => {
    const actor = requireInstanceAdmin(c);
    const { backupRetentionCount } = await readSettings(dbOf(c), "general");
    return c.json(await runDatabaseBackup(c.env, { keepLast: backupRetentionCount, requestedByUserId: actor.userId }), 201);
  },
);

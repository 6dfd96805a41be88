// Routines: CRUD, triggers (schedule, webhook, api), manual/API runs, the public webhook fire
// route and the run history. Firing happens in the company object (src/domain/routines/fire.ts).
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createRouter } from "../http/router";
import { publicBaseUrl } from "../http/public-url";
import type { AppEnv } from "../env";
import { dbOf } from "../http/db";
import { addCompanyAccessCheck, requireActor, requireCompanyAccess, requireEntityAccess } from "../http/access";
import { ReadBatch } from "../db/read-batch";
import { runCompanyCommand } from "../company/client";
import { CompanyIdParam, errors, jsonBody, jsonContent, OkSchema } from "../schemas/common";
import {
  CreateRoutineSchema,
  CreateTriggerSchema,
  PublicIdParam,
  RoutineDetailSchema,
  RoutineIdParam,
  RoutineListItemSchema,
  RoutineRunSchema,
  RoutineRunsQuery,
  RoutineSchema,
  RoutineTriggerSchema,
  RunRoutineSchema,
  TriggerIdParam,
  TriggerWithSecretSchema,
  UpdateRoutineSchema,
  UpdateTriggerSchema,
  WEBHOOK_BODY_LIMIT_BYTES,
} from "../schemas/routines";
import { SCHEDULE_KEY_PREFIX } from "../domain/routines/constants";
import {
  createRoutine,
  createTrigger,
  deleteTrigger,
  requireRoutineWriter,
  rotateTriggerSecret,
  updateRoutine,
  updateTrigger,
} from "../domain/routines/commands";
import { fireRoutine, loadFireFacts, type FireInput } from "../domain/routines/fire";
import { addRoutineListReads, findRoutine, findTriggerByPublicId, findTriggerWithRoutine, listRoutineRuns, routineDetail } from "../domain/routines/queries";
import { decideTaskAssignment, requireAssignmentAllowed } from "../domain/authorization/assignment";
import { openWebhookSecret, verifyWebhookSignature } from "../domain/routines/webhook-signature";
import type { SigningMode } from "../db/schema/routines";
import { badRequest, conflict, forbidden, HttpError, notFound } from "../domain/errors";

const tags = ["Routines"];
export const routinesRouter = createRouter();

/** The routine, after the entity access check (404 for other companies' callers). */
async function accessibleRoutine(c: Context<AppEnv>, routineId: string) {
  requireActor(c);
  const routine = await findRoutine(dbOf(c), routineId);
  requireEntityAccess(c, routine?.companyId, "Routine");
  return routine!;
}

/** The trigger with its routine, after the entity access check; it is also what trigger commands load. */
async function accessibleTrigger(c: Context<AppEnv>, triggerId: string) {
  requireActor(c);
  const found = await findTriggerWithRoutine(dbOf(c), triggerId);
  requireEntityAccess(c, found?.trigger.companyId, "Trigger");
  return found!;
}

routinesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/routines",
    operationId: "listRoutines",
    tags,
    summary: "The company's routines, newest updates first",
    description: "Each with its trigger summaries, latest run and active execution issue.",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(RoutineListItemSchema), "Routines"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const batch = new ReadBatch(dbOf(c));
    const access = addCompanyAccessCheck(c, batch, companyId);
    const list = addRoutineListReads(batch, companyId);
    await batch.run();
    access();
    return c.json(list(), 200);
  },
);

routinesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/routines",
    operationId: "createRoutine",
    tags,
    summary: "Create a routine",
    description:
      "`assigneeAgentId` is required (same company, not terminated or pending approval). Every `{{variable}}` in the title and description must be declared in `variables`. " +
      "Agents may create routines only for themselves; board callers need tasks:assign for the assignee.",
    request: { params: CompanyIdParam, body: jsonBody(CreateRoutineSchema) },
    responses: { 201: jsonContent(RoutineSchema, "The routine"), ...errors(400, 401, 403, 404, 422) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    return c.json(await runCompanyCommand(c.env, companyId, createRoutine, c.get("actor"), c.req.valid("json")), 201);
  },
);

routinesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/routines/{routineId}",
    operationId: "getRoutine",
    tags,
    summary: "One routine with project, assignee, parent issue, triggers, recent runs and active execution issue",
    request: { params: RoutineIdParam },
    responses: { 200: jsonContent(RoutineDetailSchema, "The routine"), ...errors(401, 404) },
  }),
  async (c) => {
    requireActor(c);
    const db = dbOf(c);
    const routine = await findRoutine(db, c.req.valid("param").routineId);
    requireEntityAccess(c, routine?.companyId, "Routine");
    return c.json(await routineDetail(db, routine!), 200);
  },
);

routinesRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/routines/{routineId}",
    operationId: "updateRoutine",
    tags,
    summary: "Update a routine",
    description:
      "Any create field. Agents: only routines assigned to themselves, and never reassigned to another agent (403). Clearing the assignee pauses an active routine.",
    request: { params: RoutineIdParam, body: jsonBody(UpdateRoutineSchema) },
    responses: { 200: jsonContent(RoutineSchema, "The routine"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const input = { routineId: c.req.valid("param").routineId, body: c.req.valid("json") };
    const { companyId } = await accessibleRoutine(c, input.routineId);
    return c.json(await runCompanyCommand(c.env, companyId, updateRoutine, c.get("actor"), input), 200);
  },
);

routinesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/routines/{routineId}/triggers",
    operationId: "createRoutineTrigger",
    tags,
    summary: "Add a trigger (schedule, webhook or api)",
    description:
      "Schedule: `cronExpression` and `timezone` (IANA, default UTC) are validated and `nextRunAt` computed in that zone; cannot be enabled while required variables lack defaults (422). " +
      "Webhook: `signingMode` (default `bearer`) and `replayWindowSec` (30–86,400, default 300); the response carries `webhookUrl` and `webhookSecret` — the only time the secret is shown.",
    request: { params: RoutineIdParam, body: jsonBody(CreateTriggerSchema) },
    responses: { 201: jsonContent(TriggerWithSecretSchema, "The trigger"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const input = { routineId: c.req.valid("param").routineId, body: c.req.valid("json"), publicBaseUrl: publicBaseUrl(c) };
    const routine = await accessibleRoutine(c, input.routineId);
    return c.json(await runCompanyCommand(c.env, routine.companyId, createTrigger, c.get("actor"), input, { routine }), 201);
  },
);

routinesRouter.openapi(
  createRoute({
    method: "patch",
    path: "/api/routine-triggers/{triggerId}",
    operationId: "updateRoutineTrigger",
    tags,
    summary: "Update a trigger",
    description:
      "label, enabled, cronExpression, timezone (schedule), signingMode, replayWindowSec (webhook); `nextRunAt` is recomputed. Enabling a schedule needs defaults for required variables (422).",
    request: { params: TriggerIdParam, body: jsonBody(UpdateTriggerSchema) },
    responses: { 200: jsonContent(RoutineTriggerSchema, "The trigger"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const input = { triggerId: c.req.valid("param").triggerId, body: c.req.valid("json") };
    const loaded = await accessibleTrigger(c, input.triggerId);
    return c.json(await runCompanyCommand(c.env, loaded.trigger.companyId, updateTrigger, c.get("actor"), input, loaded), 200);
  },
);

routinesRouter.openapi(
  createRoute({
    method: "delete",
    path: "/api/routine-triggers/{triggerId}",
    operationId: "deleteRoutineTrigger",
    tags,
    summary: "Delete a trigger (permanent)",
    request: { params: TriggerIdParam },
    responses: { 200: jsonContent(OkSchema, "Deleted"), ...errors(401, 403, 404, 409) },
  }),
  async (c) => {
    const input = { triggerId: c.req.valid("param").triggerId };
    const loaded = await accessibleTrigger(c, input.triggerId);
    return c.json(await runCompanyCommand(c.env, loaded.trigger.companyId, deleteTrigger, c.get("actor"), input, loaded), 200);
  },
);

routinesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/routine-triggers/{triggerId}/rotate-secret",
    operationId: "rotateRoutineTriggerSecret",
    tags,
    summary: "Rotate a webhook trigger's secret",
    description:
      "Webhook triggers only (422 otherwise). The old secret stops working at once; the URL stays. Returns `webhookUrl` and the new `webhookSecret`.",
    request: { params: TriggerIdParam },
    responses: { 200: jsonContent(TriggerWithSecretSchema, "The trigger with its new secret"), ...errors(401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const input = { triggerId: c.req.valid("param").triggerId, publicBaseUrl: publicBaseUrl(c) };
    const loaded = await accessibleTrigger(c, input.triggerId);
    return c.json(await runCompanyCommand(c.env, loaded.trigger.companyId, rotateTriggerSecret, c.get("actor"), input, loaded), 200);
  },
);

routinesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/routines/{routineId}/run",
    operationId: "runRoutine",
    tags,
    summary: "Run a routine now (manual or API)",
    description:
      "202 with the routine run. `triggerId` must be an enabled trigger of this routine; the concurrency policy applies; `idempotencyKey` returns the first run. " +
      "Variables, assignee and project overrides are validated (missing required variables: 400). Agents: only routines assigned to themselves.",
    request: { params: RoutineIdParam, body: jsonBody(RunRoutineSchema) },
    responses: { 202: jsonContent(RoutineRunSchema, "The run"), ...errors(400, 401, 403, 404, 409, 422) },
  }),
  async (c) => {
    const actor = requireActor(c);
    const body = c.req.valid("json");
    const input: FireInput = { ...body, routineId: c.req.valid("param").routineId, source: body.source ?? "manual" };
    const db = dbOf(c);
    const routine = await accessibleRoutine(c, input.routineId);
    requireRoutineWriter(actor, routine);
    if (body.assigneeAgentId) {
      // Running for another assignee assigns the execution issue to it: the same rule as assigning an issue.
      if (actor.type === "agent" && body.assigneeAgentId !== actor.agentId) throw forbidden("An agent may not run a routine for another agent");
      if (actor.type === "board")
        requireAssignmentAllowed(
          await decideTaskAssignment(db, { actor, companyId: routine.companyId, assigneeAgentId: body.assigneeAgentId, assigneeUserId: null, projectId: null }),
        );
    }
    const facts = await loadFireFacts(db, input, routine.companyId);
    return c.json(await runCompanyCommand(c.env, routine.companyId, fireRoutine, actor, input, facts), 202);
  },
);

routinesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/routine-triggers/public/{publicId}/fire",
    operationId: "fireRoutineWebhook",
    tags,
    security: [{ webhookSecret: [] }],
    summary: "Fire a webhook trigger (public; the credential is the trigger's secret)",
    description:
      "No API key: `bearer` sends `Authorization: Bearer <webhookSecret>`; `hmac_sha256` sends the hex HMAC-SHA256 of the raw body in `X-Service-Signature` or `X-Hub-Signature-256` (`sha256=` prefix accepted); " +
      "`vendor_hmac` signs `<timestamp>.<raw body>` and sends `X-Service-Timestamp` (seconds, or milliseconds) within the replay window — a signature is accepted once; `none` needs nothing. " +
      `\`Idempotency-Key\` dedupes. The body (at most ${WEBHOOK_BODY_LIMIT_BYTES} bytes; JSON, else text) becomes the run's triggerPayload; a JSON object's \`variables\` fill the routine's variables. 202 with the run.`,
    // The body is read raw (signatures are over its exact bytes), so it is not declared for validation here.
    request: { params: PublicIdParam },
    responses: { 202: jsonContent(RoutineRunSchema, "The run"), ...errors(400, 401, 404, 409, 413, 422) },
  }),
  async (c) => {
    const { publicId } = c.req.valid("param");
    const raw = new Uint8Array(await c.req.raw.arrayBuffer());
    if (raw.byteLength > WEBHOOK_BODY_LIMIT_BYTES)
      throw new HttpError(413, `Webhook body too large: at most ${WEBHOOK_BODY_LIMIT_BYTES} bytes`, { limitBytes: WEBHOOK_BODY_LIMIT_BYTES });
    const found = await findTriggerByPublicId(dbOf(c), publicId);
    if (found?.trigger.kind !== "webhook" || !found.trigger.secretCiphertext) throw notFound("Webhook trigger not found");
    const { trigger, routine } = found;
    // The signature first: an unauthenticated caller learns nothing about the trigger's state.
    const secret = await openWebhookSecret(c.env, trigger.id, trigger.secretVersion, trigger.secretCiphertext!);
    const verified = verifyWebhookSignature(
      trigger.signingMode as SigningMode,
      secret,
      {
        authorization: c.req.header("authorization"),
        serviceSignature: c.req.header("x-service-signature"),
        hubSignature: c.req.header("x-hub-signature-256"),
        timestamp: c.req.header("x-service-timestamp"),
        rawBody: raw,
      },
      trigger.replayWindowSec ?? 300,
      Date.now(),
    );
    if (!trigger.enabled) throw conflict("Trigger is disabled");
    if (routine.status !== "active") throw conflict("Routine is not active", { status: routine.status });
    const idempotencyKey = c.req.header("idempotency-key")?.trim().slice(0, 200) || null;
    if (idempotencyKey?.startsWith(SCHEDULE_KEY_PREFIX))
      throw badRequest(`Idempotency keys starting with "${SCHEDULE_KEY_PREFIX}" are reserved for schedule slots`);
    const payload = parsePayload(new TextDecoder().decode(raw));
    const variables = isPlainObject(payload) && isPlainObject(payload.variables) ? payload.variables : undefined;
    const input: FireInput = {
      routineId: routine.id,
      source: "webhook",
      triggerId: trigger.id,
      payload,
      variables,
      idempotencyKey,
      secretVersion: trigger.secretVersion,
      signingMode: trigger.signingMode ?? "bearer",
      replayKey: verified.replayKey,
    };
    return c.json(await runCompanyCommand(c.env, routine.companyId, fireRoutine, { type: "none", runId: null }, input), 202);
  },
);

routinesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/routines/{routineId}/runs",
    operationId: "listRoutineRuns",
    tags,
    summary: "The routine's runs, newest first",
    description: "`limit` default 50, at most 200 (0 or above 200: 400).",
    request: { params: RoutineIdParam, query: RoutineRunsQuery },
    responses: { 200: jsonContent(z.array(RoutineRunSchema), "Runs"), ...errors(400, 401, 404) },
  }),
  async (c) => {
    requireActor(c);
    const db = dbOf(c);
    const routine = await findRoutine(db, c.req.valid("param").routineId);
    requireEntityAccess(c, routine?.companyId, "Routine");
    return c.json(await listRoutineRuns(db, routine!.id, c.req.valid("query").limit), 200);
  },
);

const isPlainObject = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === "object" && !Array.isArray(value);

/** The webhook body as JSON when it parses, else as text; null when empty. */
function parsePayload(rawBody: string): unknown {
  if (!rawBody.trim()) return null;
  try {
    return JSON.parse(rawBody);
  } catch {
    return rawBody;
  }
}

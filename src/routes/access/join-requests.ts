// Join requests: list, approve, reject (needs joins:approve), and the agent's API key claim.
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../http/router";
import { dbOf } from "../../http/db";
import { requireCompanyAccess } from "../../http/access";
import { runCompanyCommand } from "../../company/client";
import { AGENT_KEY_PREFIX, mintApiKey } from "../../crypto/api-keys";
import { newId } from "../../crypto/random";
import { requireCompanyPermission } from "../../domain/access/permissions";
import { claimJoinRequestApiKey, decideJoinRequest } from "../../domain/access/join-requests";
import { listJoinRequests, loadJoinRequest } from "../../domain/access/queries";
import { hashSecret } from "../../domain/access/tokens";
import { CompanyIdParam, errors, jsonBody, jsonContent, optionalJsonBody } from "../../schemas/common";
import { JoinRequestSchema } from "../../schemas/access/invites";
import {
  ClaimApiKeySchema,
  ClaimRequestIdParam,
  ClaimedApiKeySchema,
  DecisionSchema,
  JoinRequestIdParam,
  JoinRequestListQuery,
} from "../../schemas/access/members";

const tags = ["Join requests"];
export const joinRequestsRouter = createRouter();

joinRequestsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/join-requests",
    tags,
    summary: "List join requests, newest first; filters status (pending = pending_approval) and requestType; needs joins:approve",
    request: { params: CompanyIdParam, query: JoinRequestListQuery },
    responses: { 200: jsonContent(z.array(JoinRequestSchema), "Join requests"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const { status, requestType } = c.req.valid("query");
    await requireCompanyAccess(c, companyId);
    const db = dbOf(c);
    await requireCompanyPermission(db, c.get("actor"), companyId, "joins:approve");
    return c.json(await listJoinRequests(db, companyId, { status, requestType }), 200);
  },
);

for (const decision of ["approve", "reject"] as const) {
  joinRequestsRouter.openapi(
    createRoute({
      method: "post",
      path: `/api/companies/{companyId}/join-requests/{requestId}/${decision}`,
      tags,
      summary:
        decision === "approve"
          ? "Approve a pending join request (needs joins:approve): an agent request creates the agent (status idle, unique URL key, the invite's role, adapter from the request or process) and its membership; a human request activates the user's membership"
          : "Reject a pending join request (needs joins:approve)",
      request: { params: JoinRequestIdParam, body: optionalJsonBody(DecisionSchema) },
      responses: { 200: jsonContent(JoinRequestSchema, "The decided request"), ...errors(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const { companyId, requestId } = c.req.valid("param");
      await requireCompanyAccess(c, companyId);
      const actor = c.get("actor");
      await requireCompanyPermission(dbOf(c), actor, companyId, "joins:approve");
      const result = await runCompanyCommand(c.env, companyId, decideJoinRequest, actor, {
        requestId,
        decision,
        note: c.req.valid("json").note,
      });
      return c.json(result, 200);
    },
  );
}

joinRequestsRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/join-requests/{requestId}/claim-api-key",
    tags,
    summary: "Claim the agent API key of an approved join request with its claim secret (no bearer needed; once only)",
    description: "Wrong secret: 403. Not yet approved, rejected, or already claimed: 409. The key (svc_agent_…) is in this response only.",
    security: [],
    request: { params: ClaimRequestIdParam, body: jsonBody(ClaimApiKeySchema) },
    responses: { 201: jsonContent(ClaimedApiKeySchema, "The agent API key, shown once"), ...errors(400, 403, 404, 409) },
  }),
  async (c) => {
    const { requestId } = c.req.valid("param");
    const { claimSecret } = c.req.valid("json");
    const request = await loadJoinRequest(dbOf(c), requestId);
    const { token, hash } = mintApiKey(AGENT_KEY_PREFIX);
    const claimed = await runCompanyCommand(c.env, request.companyId, claimJoinRequestApiKey, c.get("actor"), {
      requestId,
      claimSecretHash: hashSecret(claimSecret),
      keyHash: hash,
      keyId: newId(),
    });
    return c.json({ ...claimed, token }, 201);
  },
);

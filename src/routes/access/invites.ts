// Invites: company list/create, revoke by id, the recipient's views by token, accept, URL check.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { createRouter } from "../../http/router";
import { publicBaseUrl } from "../../http/public-url";
import { dbOf } from "../../http/db";
import { requireCompanyAccess, requireEntityAccess } from "../../http/access";
import type { Actor } from "../../domain/actor";
import { notFound } from "../../domain/errors";
import { runCompanyCommand } from "../../company/client";
import { requireCompanyPermission } from "../../domain/access/permissions";
import { CLAIM_SECRET_PREFIX, INVITE_TOKEN_PREFIX, mintSecret } from "../../domain/access/tokens";
import { inviteUrls, inviteView, acceptInvite, createInvite, revokeInvite } from "../../domain/access/invites";
import { companyLogoAsset, findInvite, inviteByToken, listInvites, type InviteWithCompany } from "../../domain/access/queries";
import { readSettings } from "../../domain/instance/settings";
import { onboardingSteps, onboardingText, skillList } from "../../domain/access/onboarding";
import { findSkill, renderSkill } from "../../domain/access/onboarding-skills";
import { resolveUrlForm } from "../../domain/access/url-resolution";
import { CompanyIdParam, errors, jsonBody, jsonContent, optionalJsonBody } from "../../schemas/common";
import {
  AcceptInviteResultSchema,
  AcceptInviteSchema,
  CreateInviteSchema,
  CreatedInviteSchema,
  InviteIdParam,
  InviteSchema,
  InviteSummarySchema,
  InviteTokenParam,
  OnboardingSchema,
  SkillIndexSchema,
  SkillNameParam,
  TestResolutionQuery,
  TestResolutionSchema,
} from "../../schemas/access/invites";

const tags = ["Invites"];
export const invitesRouter = createRouter();

type CreateInviteBody = z.infer<typeof CreateInviteSchema>;

/** Mints the token, stores the invite through the company's command, returns it with the token and URLs (once). */
export async function createInviteWithToken(c: Context<AppEnv>, companyId: string, actor: Actor, body: CreateInviteBody, source: "api" | "remote-gateway") {
  const hours = body.expiresInHours ?? (await readSettings(dbOf(c), "general")).defaultInviteExpiryHours;
  const { token, hash } = mintSecret(INVITE_TOKEN_PREFIX);
  const invite = await runCompanyCommand(c.env, companyId, createInvite, actor, {
    inviteType: body.inviteType,
    membershipRole: body.membershipRole,
    requiresApproval: body.requiresApproval,
    agentName: body.agentName,
    agentRole: body.agentRole,
    adapterType: body.adapterType,
    note: body.note,
    source,
    tokenHash: hash,
    expiresAt: new Date(Date.now() + hours * 3_600_000).toISOString(),
  });
  return { ...invite, token, urls: inviteUrls(publicBaseUrl(c), token) };
}

function summaryOf(c: Context<AppEnv>, token: string, row: InviteWithCompany) {
  const view = inviteView(row.invite);
  return {
    companyId: row.company.id,
    companyName: row.company.name,
    brandColor: row.company.brandColor ?? null,
    hasLogo: row.company.logoAssetId !== null,
    inviteType: view.inviteType,
    membershipRole: view.membershipRole,
    requiresApproval: view.requiresApproval,
    agentName: view.agentName,
    agentRole: view.agentRole,
    adapterType: view.adapterType,
    note: view.note,
    status: view.status,
    expiresAt: view.expiresAt,
    urls: inviteUrls(publicBaseUrl(c), token),
  };
}

invitesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/invites",
    tags,
    summary: "List the company's invites, newest first (tokens are never shown again); needs users:invite",
    request: { params: CompanyIdParam },
    responses: { 200: jsonContent(z.array(InviteSchema), "Invites"), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const db = dbOf(c);
    await requireCompanyPermission(db, c.get("actor"), companyId, "users:invite");
    return c.json(await listInvites(db, companyId), 200);
  },
);

invitesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/invites",
    tags,
    summary: "Create an invite (needs users:invite; the owner role only from an owner)",
    description:
      "`human`: the signed-in user who accepts joins as a board member with membershipRole (or files a join request when requiresApproval). " +
      "`agent`: an external agent accepts without credentials, which files a join request; on approval an agent is created (status idle, role agentRole, adapter adapterType or process) and the agent claims its API key with the claim secret. " +
      "Invites are single-use and expire (default: instance setting defaultInviteExpiryHours, 7 days). The token (32 random bytes) and its URLs are in this response only.",
    request: { params: CompanyIdParam, body: jsonBody(CreateInviteSchema) },
    responses: { 201: jsonContent(CreatedInviteSchema, "The invite with its token, shown once"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const actor = c.get("actor");
    await requireCompanyPermission(dbOf(c), actor, companyId, "users:invite");
    return c.json(await createInviteWithToken(c, companyId, actor, c.req.valid("json"), "api"), 201);
  },
);

invitesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/invites/{inviteId}/revoke",
    tags,
    summary: "Revoke an invite by id (idempotent; 409 once it has been accepted); needs users:invite",
    request: { params: InviteIdParam },
    responses: { 200: jsonContent(InviteSchema, "The revoked invite"), ...errors(401, 403, 404, 409) },
  }),
  async (c) => {
    const { inviteId } = c.req.valid("param");
    const db = dbOf(c);
    const invite = await findInvite(db, inviteId);
    const actor = requireEntityAccess(c, invite?.companyId, "Invite");
    await requireCompanyPermission(db, actor, invite!.companyId, "users:invite");
    return c.json(await runCompanyCommand(c.env, invite!.companyId, revokeInvite, actor, { inviteId }), 200);
  },
);

invitesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/invites/{token}",
    security: [],
    tags,
    summary: "Recipient view of an invite by token (no credentials): company name, role, type, status, expiry",
    request: { params: InviteTokenParam },
    responses: { 200: jsonContent(InviteSummarySchema, "Invite summary"), ...errors(400, 404) },
  }),
  async (c) => {
    const { token } = c.req.valid("param");
    return c.json(summaryOf(c, token, await inviteByToken(dbOf(c), token)), 200);
  },
);

invitesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/invites/{token}/logo",
    security: [],
    tags,
    summary: "The inviting company's logo bytes (404 when the company has no logo)",
    request: { params: InviteTokenParam },
    responses: {
      200: { description: "Logo image", content: { "image/*": { schema: z.string().openapi({ format: "binary" }) } } },
      ...errors(400, 404),
    },
  }),
  async (c) => {
    const { token } = c.req.valid("param");
    const db = dbOf(c);
    const { company } = await inviteByToken(db, token);
    const asset = await companyLogoAsset(db, company);
    const object = await c.env.FILES.get(asset.objectKey);
    if (!object) throw notFound("Logo bytes not found");
    return new Response(object.body, {
      status: 200,
      headers: {
        "content-type": asset.contentType,
        "content-length": String(object.size),
        "cache-control": "private, max-age=300",
        "x-content-type-options": "nosniff",
      },
    }) as never;
  },
);

invitesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/invites/{token}/onboarding",
    security: [],
    tags,
    summary: "Onboarding instructions for the invite's recipient (JSON): steps, endpoints, skills to install",
    request: { params: InviteTokenParam },
    responses: { 200: jsonContent(OnboardingSchema, "Onboarding"), ...errors(400, 404) },
  }),
  async (c) => {
    const { token } = c.req.valid("param");
    const row = await inviteByToken(dbOf(c), token);
    const summary = summaryOf(c, token, row);
    const base = publicBaseUrl(c);
    return c.json(
      {
        company: { id: row.company.id, name: row.company.name },
        invite: summary,
        steps: onboardingSteps(base, token, summary),
        skills: summary.inviteType === "agent" ? skillList(base, token) : [],
        auth: { header: "Authorization: Bearer <svc_agent_… key>", keyPrefix: "svc_agent_", runIdHeader: "X-Service-Run-Id" },
      },
      200,
    );
  },
);

invitesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/invites/{token}/onboarding.txt",
    security: [],
    tags,
    summary: "Plain-text onboarding guide: how to accept, claim an API key and call the API",
    request: { params: InviteTokenParam },
    responses: { 200: { description: "Guide", content: { "text/plain": { schema: z.string() } } }, ...errors(400, 404) },
  }),
  async (c) => {
    const { token } = c.req.valid("param");
    const row = await inviteByToken(dbOf(c), token);
    const text = onboardingText(publicBaseUrl(c), token, summaryOf(c, token, row));
    return c.text(text, 200, { "content-type": "text/plain; charset=utf-8" });
  },
);

invitesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/invites/{token}/skills/index",
    security: [],
    tags,
    summary: "The skills the invited agent should install (bundled markdown documents)",
    request: { params: InviteTokenParam },
    responses: { 200: jsonContent(SkillIndexSchema, "Skill index"), ...errors(400, 404) },
  }),
  async (c) => {
    const { token } = c.req.valid("param");
    await inviteByToken(dbOf(c), token);
    return c.json({ skills: skillList(publicBaseUrl(c), token) }, 200);
  },
);

invitesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/invites/{token}/skills/{skillName}",
    security: [],
    tags,
    summary: "One onboarding skill as markdown (service-api, join-and-claim, heartbeat)",
    request: { params: SkillNameParam },
    responses: { 200: { description: "Skill markdown", content: { "text/markdown": { schema: z.string() } } }, ...errors(400, 404) },
  }),
  async (c) => {
    const { token, skillName } = c.req.valid("param");
    const row = await inviteByToken(dbOf(c), token);
    const skill = findSkill(skillName);
    if (!skill) throw notFound(`Skill not found: ${skillName}`);
    const base = publicBaseUrl(c);
    const body = renderSkill(skill, { baseUrl: base, companyName: row.company.name, inviteUrl: inviteUrls(base, token).invite });
    return c.text(body, 200, { "content-type": "text/markdown; charset=utf-8" });
  },
);

invitesRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/invites/{token}/accept",
    security: [],
    tags,
    summary: "Accept an invite (body optional, default {})",
    description:
      "Human invite: the signed-in board user (session or board API key; not the implicit local board) joins with the invite's role, or files a join request when the invite requires approval. " +
      "Agent invite: no credentials needed; files a pending_approval join request and returns a claim secret once. " +
      "Expired, revoked or already used invites: 409.",
    request: { params: InviteTokenParam, body: optionalJsonBody(AcceptInviteSchema) },
    responses: { 200: jsonContent(AcceptInviteResultSchema, "Joined or request filed"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const { token } = c.req.valid("param");
    const body = c.req.valid("json");
    const { invite } = await inviteByToken(dbOf(c), token);
    const claim = invite.inviteType === "agent" ? mintSecret(CLAIM_SECRET_PREFIX) : null;
    const result = await runCompanyCommand(c.env, invite.companyId, acceptInvite, c.get("actor"), {
      tokenHash: invite.tokenHash,
      ...body,
      claimSecretHash: claim?.hash ?? "",
    });
    const requestId = result.joinRequest?.id ?? null;
    return c.json(
      {
        inviteType: result.inviteType,
        outcome: result.outcome,
        companyId: invite.companyId,
        membership: result.membership,
        joinRequest: result.joinRequest,
        claimSecret: claim?.token ?? null,
        claimApiKeyUrl: claim && requestId ? `${publicBaseUrl(c)}/api/join-requests/${requestId}/claim-api-key` : null,
      },
      200,
    );
  },
);

invitesRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/invites/{token}/test-resolution",
    security: [],
    tags,
    summary: "Check a URL in form only (no network call): scheme, host, port, loopback/private, the remote gateway URL rule",
    request: { params: InviteTokenParam, query: TestResolutionQuery },
    responses: { 200: jsonContent(TestResolutionSchema, "How the URL resolves"), ...errors(400, 404) },
  }),
  async (c) => {
    const { token } = c.req.valid("param");
    await inviteByToken(dbOf(c), token);
    return c.json(resolveUrlForm(c.req.valid("query").url), 200);
  },
);

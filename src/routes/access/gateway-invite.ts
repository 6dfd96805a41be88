// Remote gateway integration: an agent invite plus a ready-to-paste prompt for the gateway's operator.
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../http/router";
import { publicBaseUrl } from "../../http/public-url";
import { dbOf } from "../../http/db";
import { requireCompanyAccess } from "../../http/access";
import { requireCompanyPermission } from "../../domain/access/permissions";
import { resolveUrlForm } from "../../domain/access/url-resolution";
import { CompanyIdParam, errors, jsonBody, jsonContent } from "../../schemas/common";
import { GatewayInvitePromptResultSchema, GatewayInvitePromptSchema } from "../../schemas/access/invites";
import { createInviteWithToken } from "./invites";

export const REMOTE_GATEWAY_ADAPTER_TYPE = "remote_gateway";
export const gatewayInviteRouter = createRouter();

gatewayInviteRouter.openapi(
  createRoute({
    method: "post",
    path: "/api/companies/{companyId}/remote-gateway/invite-prompt",
    tags: ["Invites"],
    summary: "Create an agent invite for a remote gateway agent and a ready-to-paste prompt for its operator (needs users:invite)",
    description:
      "The invite is an `agent` invite with adapter type hint remote_gateway (source remote-gateway). The prompt tells the remote agent how to read the onboarding guide, accept, wait for approval and claim its API key. gatewayUrl, when given, is checked in form only.",
    request: { params: CompanyIdParam, body: jsonBody(GatewayInvitePromptSchema) },
    responses: { 201: jsonContent(GatewayInvitePromptResultSchema, "Invite and prompt"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    const company = await requireCompanyAccess(c, companyId);
    const actor = c.get("actor");
    await requireCompanyPermission(dbOf(c), actor, companyId, "users:invite");
    const body = c.req.valid("json");
    const gatewayUrlCheck = body.gatewayUrl ? resolveUrlForm(body.gatewayUrl) : null;
    const invite = await createInviteWithToken(
      c,
      companyId,
      actor,
      {
        inviteType: "agent",
        membershipRole: body.membershipRole,
        agentName: body.agentName,
        agentRole: body.role,
        adapterType: REMOTE_GATEWAY_ADAPTER_TYPE,
        expiresInHours: body.expiresInHours,
        note: body.note,
      },
      "remote-gateway",
    );
    const base = publicBaseUrl(c);
    const name = body.agentName ?? "your agent";
    const lines = [
      `You are invited to join "${company.name}" on the agent control plane at ${base} as ${body.agentName ? `the agent "${name}"` : "an agent"} with the role ${invite.agentRole ?? "general"}.`,
      "",
      `1. Read the onboarding guide: GET ${invite.urls.onboardingText}`,
      `2. Install the skills it lists (start with ${invite.urls.invite}/skills/service-api).`,
      `3. Accept the invite: POST ${invite.urls.accept} with JSON {"agentName": "${body.agentName ?? "<your name>"}", "adapterType": "${REMOTE_GATEWAY_ADAPTER_TYPE}", "capabilities": "<what you do>"}.`,
      "   Store joinRequest.id and claimSecret from the answer; the secret is shown only once.",
      `4. After a board member approves, POST ${base}/api/join-requests/<joinRequest.id>/claim-api-key with {"claimSecret": "<claimSecret>"} to receive your API key (once).`,
      `5. Call the API with "Authorization: Bearer <key>"; start with GET ${base}/api/agents/me.`,
      "",
      `The invite expires at ${invite.expiresAt}.`,
    ];
    if (gatewayUrlCheck?.wellFormed) {
      lines.push(
        `Gateway URL on file: ${body.gatewayUrl} (${gatewayUrlCheck.reachableByGateway ? "allowed by the gateway URL rule" : "plain HTTP to a non-loopback host: needs dangerouslyAllowInsecureRemoteHttp"}${gatewayUrlCheck.publiclyRoutable ? "" : "; not publicly routable"}).`,
      );
    }
    if (body.note) lines.push("", `Note: ${body.note}`);
    return c.json({ invite, prompt: lines.join("\n"), gatewayUrlCheck }, 201);
  },
);

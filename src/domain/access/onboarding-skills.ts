// The skills an invited agent should install: markdown documents bundled with the service and
// served from /api/invites/{token}/skills/{name}. `{{BASE_URL}}` and `{{COMPANY_NAME}}` are filled in.

export interface OnboardingSkill {
  name: string;
  title: string;
  description: string;
  body: string;
}

const SERVICE_API = `---
name: service-api
description: How to work as an agent of {{COMPANY_NAME}} through the control-plane API
---

# Working through the control-plane API

Base URL: \`{{BASE_URL}}/api\`. Every body is JSON (\`Content-Type: application/json\`).
Errors come back as \`{ "error": "...", "details"?: ... }\`.

## Authenticate

Send your agent API key (\`svc_agent_…\`) on every request:

    Authorization: Bearer svc_agent_...

When you work inside a run, also send the run id so locks and comments are attributed to it:

    X-Service-Run-Id: <run id>

Keep the key secret: never print it, commit it or paste it into an issue or comment.

## Find out who you are and what is yours

- \`GET /api/agents/me\` – your agent record (id, company, role, reporting line).
- \`GET /api/agents/me/inbox-lite\` – the issues assigned to you, compactly.
- \`GET /api/issues/{issueId}\` – one issue (a UUID or an identifier such as \`ABC-12\`).
- \`GET /api/issues/{issueId}/heartbeat-context\` – the issue with its ancestors, project, goal and recent comments.

## Check out before you work

Take the issue's lock before changing anything:

    POST /api/issues/{issueId}/checkout
    { "agentId": "<your agent id>", "expectedStatuses": ["todo", "backlog"] }

- You may check out only as yourself, and only with a run id (\`X-Service-Run-Id\`).
- \`409 Issue checkout conflict\` means someone else holds it: pick other work; do not retry in a loop.
- When you stop without finishing, release it: \`POST /api/issues/{issueId}/release\` (status goes back to \`todo\`).
- Finish by patching the status: \`PATCH /api/issues/{issueId}\` with \`{ "status": "done" }\` (or \`in_review\`, \`blocked\`).

## Comment

    POST /api/issues/{issueId}/comments
    { "body": "Markdown text" }

- Write what you did, what you found and what is next; link documents instead of pasting large text.
- \`@Name\` wakes the agent called Name and costs budget: mention only when you need that agent.
- Your own comments never wake you.

## Documents

- \`GET /api/issues/{issueId}/documents\` lists the issue's keyed documents.
- \`PUT /api/issues/{issueId}/documents/{key}\` writes one; send \`baseRevisionId\` (the latest revision id) when updating,
  or you get \`409\` and the current revision id to merge against.

## Budgets and approvals

Your spend counts against monthly budgets. When a hard limit is reached you are paused: stop, do not work around it.
Ask the board for decisions with an approval instead of guessing on anything risky or expensive.
`;

const JOIN_AND_CLAIM = `---
name: join-and-claim
description: How an invited agent joins {{COMPANY_NAME}} and obtains its API key
---

# Joining a company from an invite

1. Read the invite: \`GET {{INVITE_URL}}\` (company, role, status, expiry).
2. Accept it (no credentials needed for an agent invite):

       POST {{INVITE_URL}}/accept
       { "agentName": "Your name", "adapterType": "http", "capabilities": "What you are good at" }

   The answer holds \`joinRequest.id\` and a \`claimSecret\`. The secret is shown **once**: store it safely.
3. Wait for a board member to approve the join request. Poll at most every few minutes:

       POST {{BASE_URL}}/api/join-requests/{joinRequestId}/claim-api-key
       { "claimSecret": "svc_claim_..." }

   - \`409\` with "not been approved yet": wait and try later.
   - \`409\` with "rejected": stop; the company declined.
   - \`403\`: the claim secret is wrong.
   - \`201\`: the answer carries your API key (\`svc_agent_…\`), shown **once**. A second claim is refused.
4. From now on call the API with \`Authorization: Bearer <your key>\` (see the \`service-api\` skill).
`;

const HEARTBEAT = `---
name: heartbeat
description: What to do each time {{COMPANY_NAME}} wakes you
---

# Each wake-up (heartbeat)

1. \`GET {{BASE_URL}}/api/agents/me/inbox-lite\` – what is assigned to you.
2. Pick the highest-priority issue you can progress; read its \`heartbeat-context\`.
3. Check it out (with your run id), do a focused piece of work, record it in a comment or document.
4. Set the resulting status (\`done\`, \`in_review\`, \`blocked\` with the reason) or release the checkout.
5. If nothing is assigned, end the run: idle runs still cost budget.
`;

export const ONBOARDING_SKILLS: OnboardingSkill[] = [
  { name: "service-api", title: "Control-plane API", description: "Authentication, checkout, comments, documents and etiquette", body: SERVICE_API },
  { name: "join-and-claim", title: "Join and claim an API key", description: "Accept the invite, wait for approval, claim the key once", body: JOIN_AND_CLAIM },
  { name: "heartbeat", title: "Heartbeat routine", description: "What to do on every wake-up", body: HEARTBEAT },
];

export function renderSkill(skill: OnboardingSkill, vars: { baseUrl: string; companyName: string; inviteUrl: string }) {
  return skill.body.replaceAll("{{BASE_URL}}", vars.baseUrl).replaceAll("{{COMPANY_NAME}}", vars.companyName).replaceAll("{{INVITE_URL}}", vars.inviteUrl);
}

export const findSkill = (name: string) => ONBOARDING_SKILLS.find((s) => s.name === name.replace(/\.md$/, ""));

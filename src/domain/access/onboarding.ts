// Onboarding instructions for an invite's recipient, as JSON and as a plain-text guide.
import { ONBOARDING_SKILLS } from "./onboarding-skills";
import { inviteUrls } from "./invites";
import type { INVITE_TYPES } from "../../db/schema/access";

interface InviteFacts {
  companyId: string;
  companyName: string;
  inviteType: (typeof INVITE_TYPES)[number];
  membershipRole: string;
  requiresApproval: boolean;
  agentName: string | null;
  agentRole: string | null;
  adapterType: string | null;
  note: string | null;
  status: string;
  expiresAt: string;
}

export function skillList(baseUrl: string, token: string) {
  const urls = inviteUrls(baseUrl, token);
  return ONBOARDING_SKILLS.map((s) => ({
    name: s.name,
    title: s.title,
    description: s.description,
    url: `${urls.invite}/skills/${s.name}`,
  }));
}

export function onboardingSteps(baseUrl: string, token: string, invite: InviteFacts) {
  const urls = inviteUrls(baseUrl, token);
  if (invite.inviteType === "human") {
    return [
      {
        step: 1,
        title: "Sign in",
        method: null,
        url: `${baseUrl}/api/auth/sign-in/email`,
        detail: "Sign in (or sign up) as yourself; a board API key works too.",
      },
      {
        step: 2,
        title: "Accept the invite",
        method: "POST",
        url: urls.accept,
        body: {},
        detail: invite.requiresApproval
          ? `Files a join request; a board member approves it and you join as ${invite.membershipRole}.`
          : `You join ${invite.companyName} as ${invite.membershipRole} at once.`,
      },
      { step: 3, title: "Open the company", method: "GET", url: `${baseUrl}/api/companies/${invite.companyId}`, detail: "Your membership now grants access." },
    ];
  }
  return [
    {
      step: 1,
      title: "Install the skills",
      method: "GET",
      url: urls.skillsIndex,
      detail: "Fetch each listed skill (markdown) and keep it in your instructions; start with service-api.",
    },
    {
      step: 2,
      title: "Accept the invite",
      method: "POST",
      url: urls.accept,
      body: { agentName: invite.agentName ?? "Your agent name", adapterType: invite.adapterType ?? "process", capabilities: "What you can do" },
      detail: "No credentials needed. The answer holds joinRequest.id and claimSecret (shown once: store it).",
    },
    {
      step: 3,
      title: "Wait for approval",
      method: null,
      url: null,
      detail: `A board member of ${invite.companyName} approves the join request; you become a ${invite.agentRole ?? "general"} agent.`,
    },
    {
      step: 4,
      title: "Claim your API key",
      method: "POST",
      url: `${baseUrl}/api/join-requests/{joinRequestId}/claim-api-key`,
      body: { claimSecret: "<claimSecret from step 2>" },
      detail: "409 until approved; 201 returns your svc_agent_… key once. A second claim is refused.",
    },
    {
      step: 5,
      title: "Call the API",
      method: "GET",
      url: `${baseUrl}/api/agents/me`,
      detail: "Send Authorization: Bearer <your key> and, inside a run, X-Service-Run-Id.",
    },
  ];
}

export function onboardingText(baseUrl: string, token: string, invite: InviteFacts): string {
  const urls = inviteUrls(baseUrl, token);
  const lines: string[] = [];
  lines.push(`# Joining ${invite.companyName}`);
  lines.push("");
  lines.push(
    invite.inviteType === "agent"
      ? `You are invited to join ${invite.companyName} as an agent${invite.agentName ? ` named "${invite.agentName}"` : ""} with the role ${invite.agentRole ?? "general"}.`
      : `You are invited to join ${invite.companyName} as a board member with the role ${invite.membershipRole}.`,
  );
  lines.push(`Invite status: ${invite.status}. Expires: ${invite.expiresAt}.`);
  if (invite.note) lines.push(`Note from the inviter: ${invite.note}`);
  if (invite.status !== "pending") {
    lines.push("");
    lines.push(`This invite can no longer be accepted (${invite.status}). Ask the company for a new one.`);
  }
  lines.push("");
  lines.push("## Steps");
  for (const step of onboardingSteps(baseUrl, token, invite)) {
    lines.push("");
    lines.push(`${step.step}. ${step.title}`);
    if (step.method && step.url) lines.push(`   ${step.method} ${step.url}`);
    if ("body" in step && step.body !== undefined) lines.push(`   Body: ${JSON.stringify(step.body)}`);
    lines.push(`   ${step.detail}`);
  }
  if (invite.inviteType === "agent") {
    lines.push("");
    lines.push("## Example");
    lines.push("");
    lines.push(`curl -sS -X POST '${urls.accept}' -H 'Content-Type: application/json' \\`);
    lines.push(`  -d '{"agentName":"${invite.agentName ?? "My Agent"}","adapterType":"${invite.adapterType ?? "process"}"}'`);
    lines.push(`curl -sS -X POST '${baseUrl}/api/join-requests/<joinRequestId>/claim-api-key' -H 'Content-Type: application/json' \\`);
    lines.push(`  -d '{"claimSecret":"<claimSecret>"}'`);
    lines.push(`curl -sS '${baseUrl}/api/agents/me' -H 'Authorization: Bearer <svc_agent_key>'`);
    lines.push("");
    lines.push("## Skills");
    for (const s of skillList(baseUrl, token)) lines.push(`- ${s.name}: ${s.description} – ${s.url}`);
    lines.push("");
    lines.push("## Rules");
    lines.push("- Keep the claim secret and the API key private; they are shown once.");
    lines.push("- Check out an issue before changing it; release it if you stop.");
    lines.push("- Mention other agents only when needed: each mention wakes them and costs budget.");
  }
  lines.push("");
  return lines.join("\n");
}

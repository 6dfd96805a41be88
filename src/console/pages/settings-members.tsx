// Members and invites: everyone in the company (people and agents) with their role — a person's
// role changes here — and the invites: who was invited as what, until when, and "Revoke". "Create
// invite" shows the invite link once (only its hash is kept).
import { useState } from "preact/hooks";
import { Feedback, useAction } from "../components/action";
import { StatusBadge } from "../components/badges";
import { SelectField, TextArea, TextField } from "../components/fields";
import { SettingsNav } from "../components/settings-nav";
import { ShownOnce } from "../components/shown-once";
import { Async } from "../components/states";
import { api, call, type Schemas } from "../lib/api";
import { type Company, companyPath } from "../lib/companies";
import { INVITE_TYPES, type InviteType, label, MEMBER_ROLES, type MemberRole, onChosen, oneOf } from "../lib/enums";
import { ago, when } from "../lib/format";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";
import { submittedForm } from "../lib/form";

type Member = Schemas["CompanyMember"];
type Invite = Schemas["Invite"];

export default function MembersPage({ company }: CompanyPageProps) {
  useTitle("Members and invites");
  const path = { companyId: company.id };
  const members = useResource(() => call(api.GET("/api/companies/{companyId}/members", { params: { path } })), [company.id], {
    types: ["agent.*", "approval.resolved", "member.*"],
  });
  const invites = useResource(() => call(api.GET("/api/companies/{companyId}/invites", { params: { path } })), [company.id], {
    types: ["agent.created", "approval.resolved", "invite.*", "member.added"],
  });
  return (
    <>
      <h1 tabIndex={-1}>Members and invites</h1>
      <SettingsNav company={company} />
      <section aria-labelledby="members">
        <h2 id="members">Members</h2>
        <Async resource={members} what="members" empty="No members yet: invite people or agents below.">
          {(list) => (
            <ul class="rows member-list">
              {list.map((m) => (
                <MemberRow key={m.id} member={m} company={company} onChanged={() => void members.reload()} />
              ))}
            </ul>
          )}
        </Async>
      </section>
      <section aria-labelledby="invites">
        <h2 id="invites">Invites</h2>
        <Async resource={invites} what="invites" empty="No invites yet.">
          {(list) => (
            <ul class="rows invite-list">
              {list.map((i) => (
                <InviteRow key={i.id} invite={i} onChanged={() => void invites.reload()} />
              ))}
            </ul>
          )}
        </Async>
        <NewInvite company={company} onCreated={() => void invites.reload()} />
      </section>
    </>
  );
}

function MemberRow({ member: m, company, onChanged }: { member: Member; company: Company; onChanged: () => void }) {
  const action = useAction();
  const name = m.principalType === "user" ? (m.user?.name ?? m.user?.email ?? "A person") : (m.agent?.name ?? "An agent");
  const change = async (membershipRole: MemberRole) => {
    const saved = await action.run(
      () =>
        call(
          api.PATCH("/api/companies/{companyId}/members/{memberId}", { params: { path: { companyId: company.id, memberId: m.id } }, body: { membershipRole } }),
        ),
      `${name} is now ${label(membershipRole).toLowerCase()}.`,
    );
    onChanged();
    return saved;
  };
  return (
    <li>
      {m.principalType === "agent" ? <a href={companyPath(company, `agents/${m.principalId}`)}>{name}</a> : <strong>{name}</strong>}{" "}
      <StatusBadge status={m.status} />{" "}
      <span class="meta">
        {m.principalType === "user" ? (m.user?.email ?? "person") : `agent${m.agent?.role ? `, ${m.agent.role}` : ""}`} · joined {ago(m.createdAt)}
      </span>
      {m.principalType === "user" ? (
        <div class="inline-form">
          <SelectField
            label={`Role of ${name}`}
            value={m.membershipRole}
            disabled={action.busy}
            options={MEMBER_ROLES.map((r) => ({ value: r, label: label(r) }))}
            onChange={onChosen(MEMBER_ROLES, (role) => void change(role))}
          />
        </div>
      ) : (
        <span class="meta"> · {label(m.membershipRole)}</span>
      )}
      <Feedback action={action} />
    </li>
  );
}

function InviteRow({ invite: i, onChanged }: { invite: Invite; onChanged: () => void }) {
  const action = useAction();
  const who = i.inviteType === "agent" ? `Agent ${i.agentName ?? "(unnamed)"}` : "A person";
  const revoke = async () => {
    await action.run(() => call(api.POST("/api/invites/{inviteId}/revoke", { params: { path: { inviteId: i.id } } })), "Invite revoked.");
    onChanged();
  };
  return (
    <li>
      {who}, as {label(i.membershipRole).toLowerCase()} <StatusBadge status={i.status} />{" "}
      <span class="meta">
        created {ago(i.createdAt)} · {i.status === "pending" ? "expires" : "expiry"}{" "}
        <time dateTime={i.expiresAt} title={when(i.expiresAt)}>
          {ago(i.expiresAt)}
        </time>
        {i.requiresApproval ? " · needs approval" : ""}
        {i.note ? ` · “${i.note}”` : ""}
      </span>{" "}
      {i.status === "pending" && (
        <button type="button" class="danger" disabled={action.busy} onClick={revoke} aria-label={`Revoke the invite for ${who.toLowerCase()}`}>
          Revoke
        </button>
      )}
      <Feedback action={action} />
    </li>
  );
}

function NewInvite({ company, onCreated }: { company: Company; onCreated: () => void }) {
  const action = useAction();
  const [type, setType] = useState<InviteType>("human");
  const [link, setLink] = useState<string | null>(null);
  const submit = async (event: Event) => {
    const { element, form, text } = submittedForm(event);
    const created = await action.run(
      () =>
        call(
          api.POST("/api/companies/{companyId}/invites", {
            params: { path: { companyId: company.id } },
            body: {
              inviteType: type,
              membershipRole: oneOf(MEMBER_ROLES, text("role")),
              ...(type === "agent" && text("agentName") ? { agentName: text("agentName") } : {}),
              ...(type === "human" && form.get("approval") === "on" ? { requiresApproval: true } : {}),
              ...(text("hours") ? { expiresInHours: Number(text("hours")) } : {}),
              ...(text("note") ? { note: text("note") } : {}),
            },
          }),
        ),
      "Invite created.",
    );
    if (created) {
      setLink(created.urls.invite);
      element.reset();
      onCreated();
    }
  };
  return (
    <>
      {link && (
        <ShownOnce label="Invite link" value={link} onClose={() => setLink(null)}>
          <p class="meta">Send it to the person or agent you invite; anyone with the link can accept it until it expires.</p>
        </ShownOnce>
      )}
      <form class="card stack narrow-form" onSubmit={submit} aria-labelledby="new-invite">
        <h3 id="new-invite">Create invite</h3>
        <SelectField
          label="Invite"
          value={type}
          onChange={onChosen(INVITE_TYPES, setType)}
          options={[
            { value: "human", label: "A person (board member)" },
            { value: "agent", label: "An agent (asks to join)" },
          ]}
        />
        <SelectField label="Role" name="role" defaultValue="member" options={MEMBER_ROLES.map((r) => ({ value: r, label: label(r) }))} />
        {type === "agent" && <TextField label="Agent name" name="agentName" maxLength={200} hint="Suggested name; the agent may give its own." />}
        {type === "human" && (
          <div class="check">
            <input id="invite-approval" type="checkbox" name="approval" />
            <label for="invite-approval">Accepting needs a board member's approval</label>
          </div>
        )}
        <TextField label="Expires in (hours)" name="hours" type="number" min={1} max={720} step={1} hint="Default: 7 days." />
        <TextArea label="Note" name="note" rows={2} maxLength={2000} hint="Shown to the recipient." />
        <Feedback action={action} />
        <button type="submit" class="primary" disabled={action.busy}>
          Create invite
        </button>
      </form>
    </>
  );
}

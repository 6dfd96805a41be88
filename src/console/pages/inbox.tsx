// "Waiting on you": every decision the board owes, in one place. Approvals (approve, reject or ask
// for a revision, with a comment), budget incidents (keep the scope paused, or raise its budget and
// resume) and join requests. The navigation shows the same count (lib/inbox.ts).
import { useId, useState } from "preact/hooks";
import { TextArea, TextField } from "../components/fields";
import { Empty, ErrorMessage, Loading } from "../components/states";
import { agentName } from "../lib/agents";
import { api, call, messageOf } from "../lib/api";
import { label } from "../lib/enums";
import { ago, money, when } from "../lib/format";
import { type Approval, type BudgetIncident, type IncidentGroup, type JoinRequest, inbox, inboxError, loadInbox } from "../lib/inbox";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

export default function InboxPage({ company }: CompanyPageProps) {
  useTitle("Waiting on you");
  const [notice, setNotice] = useState("");
  const current = inbox.value?.companyId === company.id ? inbox.value : undefined;
  const done = async (message: string) => {
    setNotice(message);
    await loadInbox(company.id);
  };
  return (
    <>
      <h1 tabIndex={-1}>Waiting on you</h1>
      <p role="status" class="notice">
        {notice}
      </p>
      {inboxError.value && <ErrorMessage message={inboxError.value} retry={() => void loadInbox(company.id)} />}
      {!current ? (
        !inboxError.value && <Loading what="the inbox" />
      ) : (
        <>
          <section aria-labelledby="inbox-approvals">
            <h2 id="inbox-approvals">Approvals ({current.approvals.length})</h2>
            {current.approvals.length === 0 ? (
              <Empty>No approvals are waiting.</Empty>
            ) : (
              <ul class="cards">
                {current.approvals.map((a) => (
                  <ApprovalCard key={a.id} approval={a} onDone={done} />
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="inbox-incidents">
            <h2 id="inbox-incidents">Budget incidents ({current.incidents.length})</h2>
            {current.incidents.length === 0 ? (
              <Empty>No budget incident is open.</Empty>
            ) : (
              <ul class="cards">
                {current.incidents.map((group) => (
                  <IncidentCard key={group.policyId} group={group} companyId={company.id} onDone={done} />
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="inbox-joins">
            <h2 id="inbox-joins">Join requests ({current.joinRequests.length})</h2>
            {current.joinRequestsHidden ? (
              <Empty>You may not decide join requests in this company.</Empty>
            ) : current.joinRequests.length === 0 ? (
              <Empty>No one is asking to join.</Empty>
            ) : (
              <ul class="cards">
                {current.joinRequests.map((j) => (
                  <JoinRequestCard key={j.id} request={j} companyId={company.id} onDone={done} />
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </>
  );
}

/** What an approval asks, in a line, from its type-specific payload. */
function approvalTitle(approval: Approval): string {
  const p = approval.payload as Record<string, unknown>;
  const text = (key: string) => (typeof p[key] === "string" && p[key] ? (p[key] as string) : null);
  if (approval.type === "hire_agent") return `Hire ${text("name") ?? "an agent"}${text("role") ? ` as ${text("role")}` : ""}`;
  return text("title") ?? text("summary") ?? label(approval.type);
}

function useAction(onDone: (message: string) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (work: () => Promise<unknown>, message: string) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      await onDone(message);
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };
  return { busy, error, run };
}

function ApprovalCard({ approval, onDone }: { approval: Approval; onDone: (message: string) => Promise<void> }) {
  const id = useId();
  const [note, setNote] = useState("");
  const { busy, error, run } = useAction(onDone);
  const title = approvalTitle(approval);
  const p = approval.payload as Record<string, unknown>;
  const decide = (decision: "approve" | "reject" | "request-revision", done: string) =>
    run(
      () =>
        call(
          api.POST(`/api/approvals/{approvalId}/${decision}`, { params: { path: { approvalId: approval.id } }, body: { decisionNote: note.trim() || null } }),
        ),
      `${done}: ${title}.`,
    );
  return (
    <li class="card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      <p class="meta">
        {label(approval.type)} · requested by {approval.requestedByAgentId ? agentName(approval.requestedByAgentId) : "the board"}{" "}
        <time dateTime={approval.createdAt} title={when(approval.createdAt)}>
          {ago(approval.createdAt)}
        </time>
      </p>
      {typeof p.summary === "string" && p.summary !== title && <p>{p.summary}</p>}
      {typeof p.recommendedAction === "string" && <p>Recommended: {p.recommendedAction}</p>}
      <TextArea label="Comment" rows={2} value={note} onInput={(e) => setNote(e.currentTarget.value)} hint="Optional; stored as the decision note." />
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="button" class="primary" disabled={busy} onClick={() => decide("approve", "Approved")}>
          Approve
        </button>
        <button type="button" disabled={busy} onClick={() => decide("reject", "Rejected")}>
          Reject
        </button>
        <button type="button" disabled={busy} onClick={() => decide("request-revision", "Revision requested")}>
          Request revision
        </button>
      </div>
    </li>
  );
}

function scopeName(incident: BudgetIncident) {
  if (incident.scopeType === "agent") return `Agent ${agentName(incident.scopeId)}`;
  if (incident.scopeType === "project") return "A project";
  return "The company";
}

function IncidentCard({ group, companyId, onDone }: { group: IncidentGroup; companyId: string; onDone: (message: string) => Promise<void> }) {
  const id = useId();
  const incident = group.primary;
  const { busy, error, run } = useAction(onDone);
  const suggested = Math.ceil((Math.max(incident.observedCents, incident.amountCents) * 1.5) / 100);
  const [amount, setAmount] = useState(String(suggested));
  const name = scopeName(incident);
  const hard = incident.kind === "hard";
  const resolveOne = (incidentId: string, body: { action: "keep_paused" } | { action: "raise_budget_and_resume"; amountCents: number }) =>
    call(api.POST("/api/companies/{companyId}/budget-incidents/{incidentId}/resolve", { params: { path: { companyId, incidentId } }, body }));
  // Keeping it paused settles the warning that came with the stop too; raising the budget settles
  // every open incident of the policy by itself.
  const keepPaused = () =>
    run(
      async () => {
        for (const each of group.incidents) await resolveOne(each.id, { action: "keep_paused" });
      },
      hard ? `${name} stays paused.` : `Warning dismissed: ${name}.`,
    );
  const raise = (event: Event) => {
    event.preventDefault();
    const cents = Math.round(Number(amount) * 100);
    void run(() => resolveOne(incident.id, { action: "raise_budget_and_resume", amountCents: cents }), `Budget raised to ${money(cents)}: ${name} resumed.`);
  };
  return (
    <li class="card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {name}: {hard ? "stopped at its budget" : "near its budget"}
      </h3>
      <p>
        Spent {money(incident.observedCents)} of {money(incident.amountCents)} (
        {incident.windowKind === "lifetime" ? "lifetime" : `month ${incident.windowKey}`}).{" "}
        {hard ? "It is paused until you decide." : "A warning: nothing is paused yet."}
      </p>
      <p class="meta">
        Opened{" "}
        <time dateTime={incident.createdAt} title={when(incident.createdAt)}>
          {ago(incident.createdAt)}
        </time>
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="button" disabled={busy} onClick={keepPaused}>
          {hard ? "Keep paused" : "Dismiss warning"}
        </button>
      </div>
      <form class="inline-form" onSubmit={raise}>
        <TextField
          label="New budget (USD)"
          type="number"
          min={(incident.observedCents + 1) / 100}
          step="0.01"
          inputMode="decimal"
          required
          value={amount}
          onInput={(e) => setAmount(e.currentTarget.value)}
        />
        <button type="submit" class="primary" disabled={busy}>
          {hard ? "Raise budget and resume" : "Raise budget"}
        </button>
      </form>
    </li>
  );
}

function JoinRequestCard({ request, companyId, onDone }: { request: JoinRequest; companyId: string; onDone: (message: string) => Promise<void> }) {
  const id = useId();
  const { busy, error, run } = useAction(onDone);
  const who = request.requestType === "agent" ? `Agent ${request.agentName ?? "(unnamed)"}${request.agentRole ? `, ${request.agentRole}` : ""}` : "A person";
  const decide = (decision: "approve" | "reject", done: string) =>
    run(
      () =>
        call(
          api.POST(`/api/companies/{companyId}/join-requests/{requestId}/${decision}`, { params: { path: { companyId, requestId: request.id } }, body: {} }),
        ),
      `${done}: ${who}.`,
    );
  return (
    <li class="card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{who} asks to join</h3>
      <p class="meta">
        As {request.membershipRole}
        {request.adapterType ? ` · ${request.adapterType}` : ""} ·{" "}
        <time dateTime={request.createdAt} title={when(request.createdAt)}>
          {ago(request.createdAt)}
        </time>
      </p>
      {request.message && <p>{request.message}</p>}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="button" class="primary" disabled={busy} onClick={() => decide("approve", "Approved")}>
          Approve
        </button>
        <button type="button" disabled={busy} onClick={() => decide("reject", "Rejected")}>
          Reject
        </button>
      </div>
    </li>
  );
}

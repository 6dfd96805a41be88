// A join request (a person or an agent who accepted an invite): Approve or Reject.
import { useId } from "preact/hooks";
import { api, call } from "../../lib/api";
import { ago, when } from "../../lib/format";
import type { JoinRequest } from "../../lib/inbox";
import { Feedback } from "../action";
import { type OnDone, useDecision } from "./decision";

export function JoinRequestCard({ request, companyId, onDone }: { request: JoinRequest; companyId: string; onDone: OnDone }) {
  const id = useId();
  const { action, decide: run } = useDecision(onDone);
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
      <Feedback action={action} />
      <div class="actions">
        <button type="button" class="primary" disabled={action.busy} onClick={() => decide("approve", "Approved")}>
          Approve
        </button>
        <button type="button" disabled={action.busy} onClick={() => decide("reject", "Rejected")}>
          Reject
        </button>
      </div>
    </li>
  );
}

// An approval waiting on the board: what it asks, who asked, an optional comment (the decision
// note), and Approve, Reject or Request revision.
import { useId, useState } from "preact/hooks";
import { agentName } from "../../lib/agents";
import { api, call } from "../../lib/api";
import { label } from "../../lib/enums";
import { ago, when } from "../../lib/format";
import type { Approval } from "../../lib/inbox";
import { Feedback } from "../action";
import { type OnDone, useDecision } from "./decision";
import { TextArea } from "../fields";

/** What an approval asks, in a line, from its type-specific payload. */
export function approvalTitle(approval: Approval): string {
  const p = approval.payload as Record<string, unknown>;
  const text = (key: string) => (typeof p[key] === "string" && p[key] ? (p[key] as string) : null);
  if (approval.type === "hire_agent") return `Hire ${text("name") ?? "an agent"}${text("role") ? ` as ${text("role")}` : ""}`;
  return text("title") ?? text("summary") ?? label(approval.type);
}

export function ApprovalCard({ approval, onDone }: { approval: Approval; onDone: OnDone }) {
  const id = useId();
  const [note, setNote] = useState("");
  const { action, decide: run } = useDecision(onDone);
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
      <Feedback action={action} />
      <div class="actions">
        <button type="button" class="primary" disabled={action.busy} onClick={() => decide("approve", "Approved")}>
          Approve
        </button>
        <button type="button" disabled={action.busy} onClick={() => decide("reject", "Rejected")}>
          Reject
        </button>
        <button type="button" disabled={action.busy} onClick={() => decide("request-revision", "Revision requested")}>
          Request revision
        </button>
      </div>
    </li>
  );
}

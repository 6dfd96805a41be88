// Approving a CLI sign-in (`acp login` prints this page's URL): the signed-in board user sees the
// code the terminal shows, and approves (minting the CLI's board API key) or cancels.
import { Feedback, useAction } from "../components/action";
import { Layout } from "../components/layout";
import { Async } from "../components/states";
import { api, call, type Schemas } from "../lib/api";
import { ago, when } from "../lib/format";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { PageProps } from "../routes";

type Challenge = Schemas["CliChallenge"];

const STATUS_TEXT: Record<Challenge["status"], string> = {
  pending: "Waiting for your approval.",
  approved: "Approved. The CLI is signed in (or will be at its next poll); you can return to your terminal.",
  consumed: "Approved and used: the CLI is signed in. You can return to your terminal.",
  cancelled: "Cancelled. The CLI was not signed in.",
  expired: "Expired. Run acp login again for a new code.",
};

export default function CliAuthPage({ params }: PageProps) {
  useTitle("Approve CLI sign-in", false);
  const id = params.challengeId;
  const challenge = useResource(() => call(api.GET("/api/cli-auth/challenges/{id}", { params: { path: { id }, header: {} } })), [id]);
  const action = useAction();

  const decide = (decision: "approve" | "cancel", current: Challenge) =>
    action.run(async () => {
      if (decision === "approve")
        await call(api.POST("/api/cli-auth/challenges/{id}/approve", { params: { path: { id } }, body: { userCode: current.userCode } }));
      else await call(api.POST("/api/cli-auth/challenges/{id}/cancel", { params: { path: { id }, header: {} } }));
      await challenge.reload();
    });

  return (
    <Layout>
      <div class="narrow">
        <h1 tabIndex={-1}>Approve CLI sign-in</h1>
        <Async resource={challenge} what="the sign-in request">
          {(c) => (
            <section aria-labelledby="challenge-code">
              <p>
                <strong>{c.clientName}</strong> asks to sign in as you and receive a board API key (valid 30 days).
              </p>
              <p class="meta">
                Requested {ago(c.createdAt)}; expires{" "}
                <time dateTime={c.expiresAt} title={when(c.expiresAt)}>
                  {ago(c.expiresAt)}
                </time>
                .
              </p>
              <h2 id="challenge-code">Code</h2>
              <p class="user-code" aria-describedby="code-hint">
                {c.userCode}
              </p>
              <p id="code-hint">Approve only if your terminal shows this same code.</p>
              <p role="status" class="status-line">
                {STATUS_TEXT[c.status]}
              </p>
              <Feedback action={action} />
              {c.status === "pending" && (
                <div class="actions">
                  <button type="button" class="primary" disabled={action.busy} onClick={() => decide("approve", c)}>
                    Approve
                  </button>
                  <button type="button" disabled={action.busy} onClick={() => decide("cancel", c)}>
                    Cancel
                  </button>
                </div>
              )}
              {c.status === "approved" && (
                <div class="actions">
                  <button type="button" disabled={action.busy} onClick={() => decide("cancel", c)}>
                    Cancel
                  </button>
                </div>
              )}
            </section>
          )}
        </Async>
      </div>
    </Layout>
  );
}

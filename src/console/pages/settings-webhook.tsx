// One webhook: Enable / Disable, "Send test" (a ping), "Rotate secret" (the new secret shown once),
// Delete (asked twice), its URL, events and description, and its delivery log — status, attempts,
// the receiver's answer, the next attempt — with "Redeliver" on each delivery. Deliveries are
// announced by no event, so the log is read again every few seconds while one is pending.
import { useEffect, useState } from "preact/hooks";
import { StatusBadge } from "../components/badges";
import { SettingsNav } from "../components/settings-nav";
import { EditWebhook, WebhookControls } from "../components/settings-webhook/controls";
import { WebhookDeliveryRow } from "../components/settings-webhook/delivery-row";
import { Async } from "../components/states";
import { api, call } from "../lib/api";
import { companyPath } from "../lib/companies";
import { loadStopped } from "../lib/inbox";
import { ago } from "../lib/format";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

const PENDING_POLL_MS = 2000;
const PAGE = 50;

export default function WebhookPage({ company, params }: CompanyPageProps) {
  const path = { companyId: company.id, webhookId: params.webhookId };
  const webhook = useResource(() => call(api.GET("/api/companies/{companyId}/webhooks/{webhookId}", { params: { path } })), [company.id, params.webhookId], {
    types: [],
  });
  const [limit, setLimit] = useState(PAGE);
  const deliveries = useResource(
    () => call(api.GET("/api/companies/{companyId}/webhooks/{webhookId}/deliveries", { params: { path, query: { limit } } })),
    [company.id, params.webhookId, limit],
    { types: [] },
  );
  const pending = deliveries.data?.deliveries.some((d) => d.status === "pending");
  useEffect(() => {
    if (!pending || deliveries.loading) return;
    const timer = setTimeout(() => void deliveries.reload(), PENDING_POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, deliveries.data, deliveries.loading]);
  useTitle(webhook.data ? `Webhook ${webhook.data.url}` : "Webhook");
  return (
    <>
      <p class="meta">
        <a href={companyPath(company, "settings/webhooks")}>Webhooks</a>
      </p>
      <Async resource={webhook} what="the webhook">
        {(w) => (
          <>
            <h1 tabIndex={-1}>Webhook</h1>
            <SettingsNav company={company} />
            <p class="mono">{w.url}</p>
            <p class="meta">
              <StatusBadge status={w.enabled ? "enabled" : "disabled"} /> created {ago(w.createdAt)}
              {w.disabledReason ? ` · ${w.disabledReason}` : ""}
              {w.failingSince ? ` · failing since ${ago(w.failingSince)}` : ""}
            </p>
            <WebhookControls
              webhook={w}
              company={company}
              onChanged={() => {
                void webhook.reload();
                void deliveries.reload();
                // Enabled again: no longer waiting on the board.
                void loadStopped(company.id);
              }}
            />
            <EditWebhook webhook={w} company={company} onSaved={() => void webhook.reload()} />
            <section aria-labelledby="webhook-deliveries">
              <h2 id="webhook-deliveries">Deliveries</h2>
              <Async
                resource={deliveries}
                what="deliveries"
                isEmpty={(page) => page.deliveries.length === 0}
                empty="No deliveries yet. “Send test” sends a ping."
              >
                {(page) => (
                  <>
                    <ul class="rows deliveries">
                      {page.deliveries.map((d) => (
                        <WebhookDeliveryRow key={d.id} delivery={d} company={company} webhookId={w.id} onRedelivered={() => void deliveries.reload()} />
                      ))}
                    </ul>
                    {page.nextCursor && (
                      <button type="button" onClick={() => setLimit(limit + PAGE)}>
                        Show more
                      </button>
                    )}
                  </>
                )}
              </Async>
            </section>
          </>
        )}
      </Async>
    </>
  );
}

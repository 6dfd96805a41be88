// One webhook: Enable / Disable, "Send test" (a ping), "Rotate secret" (the new secret shown once),
// Delete (asked twice), its URL, events and description, and its delivery log — status, attempts,
// the receiver's answer, the next attempt — with "Redeliver" on each delivery. Deliveries are
// announced by no event, so the log is read again every few seconds while one is pending.
import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso/router";
import { Feedback, useAction } from "../components/action";
import { StatusBadge } from "../components/badges";
import { TextField } from "../components/fields";
import { SettingsNav } from "../components/settings-nav";
import { ShownOnce } from "../components/shown-once";
import { Async } from "../components/states";
import { api, call, type Schemas } from "../lib/api";
import { type Company, companyPath } from "../lib/companies";
import { ago, when } from "../lib/format";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import { eventList } from "../lib/webhooks";
import type { CompanyPageProps } from "../routes";

type Webhook = Schemas["Webhook"];
type Delivery = Schemas["WebhookDelivery"];

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
                        <DeliveryRow key={d.id} delivery={d} company={company} webhookId={w.id} onRedelivered={() => void deliveries.reload()} />
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

function WebhookControls({ webhook: w, company, onChanged }: { webhook: Webhook; company: Company; onChanged: () => void }) {
  const { route } = useLocation();
  const action = useAction();
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const path = { companyId: company.id, webhookId: w.id };
  const act = async <T,>(work: () => Promise<T>, done: string) => {
    const result = await action.run(work, done);
    if (result) onChanged();
    return result;
  };
  return (
    <section class="controls" aria-label="Webhook controls">
      <div class="actions">
        <button
          type="button"
          class={w.enabled ? "" : "primary"}
          disabled={action.busy}
          onClick={() =>
            act(
              () => call(api.PATCH("/api/companies/{companyId}/webhooks/{webhookId}", { params: { path }, body: { enabled: !w.enabled } })),
              w.enabled ? "Webhook disabled." : "Webhook enabled.",
            )
          }
        >
          {w.enabled ? "Disable" : "Enable"}
        </button>
        <button
          type="button"
          disabled={action.busy}
          onClick={() => act(() => call(api.POST("/api/companies/{companyId}/webhooks/{webhookId}/test", { params: { path } })), "Test ping sent.")}
        >
          Send test
        </button>
        <button
          type="button"
          disabled={action.busy}
          onClick={async () => {
            const rotated = await act(
              () => call(api.POST("/api/companies/{companyId}/webhooks/{webhookId}/rotate-secret", { params: { path } })),
              "Secret rotated.",
            );
            if (rotated) setSecret(rotated.secret);
          }}
        >
          Rotate secret
        </button>
        <button type="button" class="danger" disabled={action.busy} aria-expanded={confirming} onClick={() => setConfirming(true)}>
          Delete
        </button>
      </div>
      {confirming && (
        <div class="confirm">
          <p>Delete this webhook? Its pending deliveries are dropped.</p>
          <button
            type="button"
            class="danger"
            disabled={action.busy}
            onClick={async () => {
              const deleted = await action.run(() => call(api.DELETE("/api/companies/{companyId}/webhooks/{webhookId}", { params: { path } })));
              if (deleted) route(companyPath(company, "settings/webhooks"));
            }}
          >
            Delete webhook
          </button>{" "}
          <button type="button" onClick={() => setConfirming(false)}>
            Keep the webhook
          </button>
        </div>
      )}
      {secret && <ShownOnce label="Signing secret" value={secret} onClose={() => setSecret(null)} />}
      <Feedback action={action} />
    </section>
  );
}

function EditWebhook({ webhook: w, company, onSaved }: { webhook: Webhook; company: Company; onSaved: () => void }) {
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(data.get(name) ?? "").trim();
    const saved = await action.run(
      () =>
        call(
          api.PATCH("/api/companies/{companyId}/webhooks/{webhookId}", {
            params: { path: { companyId: company.id, webhookId: w.id } },
            body: { url: text("url"), events: eventList(text("events")), description: text("description") || null },
          }),
        ),
      "Webhook saved.",
    );
    if (saved) onSaved();
  };
  return (
    <details class="edit">
      <summary>Edit URL, events and description</summary>
      <form class="stack narrow-form" onSubmit={submit}>
        <TextField label="URL" name="url" type="url" required maxLength={2000} defaultValue={w.url} />
        <TextField label="Events" name="events" required defaultValue={w.events.join(", ")} hint="Exact types, prefixes such as issue.*, or *." />
        <TextField label="Description" name="description" maxLength={500} defaultValue={w.description ?? ""} />
        <Feedback action={action} />
        <button type="submit" disabled={action.busy}>
          Save webhook
        </button>
      </form>
    </details>
  );
}

function DeliveryRow({
  delivery: d,
  company,
  webhookId,
  onRedelivered,
}: {
  delivery: Delivery;
  company: Company;
  webhookId: string;
  onRedelivered: () => void;
}) {
  const action = useAction();
  const redeliver = async () => {
    const again = await action.run(
      () =>
        call(
          api.POST("/api/companies/{companyId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", {
            params: { path: { companyId: company.id, webhookId, deliveryId: d.id } },
          }),
        ),
      `${d.eventType} sent again.`,
    );
    if (again) onRedelivered();
  };
  return (
    <li>
      <StatusBadge status={d.status} /> <span class="mono">{d.eventType}</span>{" "}
      <span class="meta">
        <time dateTime={d.createdAt} title={when(d.createdAt)}>
          {ago(d.createdAt)}
        </time>{" "}
        · {d.attempts} {d.attempts === 1 ? "attempt" : "attempts"}
        {d.responseStatus !== null ? ` · answered ${d.responseStatus}` : ""}
        {d.latencyMs !== null ? ` in ${d.latencyMs} ms` : ""}
        {d.nextAttemptAt ? ` · next attempt ${ago(d.nextAttemptAt)}` : ""}
      </span>
      {d.lastError && <p class="error">{d.lastError}</p>}
      {d.responseBody && (
        <details>
          <summary>The receiver's answer</summary>
          <pre class="mono">{d.responseBody}</pre>
        </details>
      )}
      <div class="actions">
        <button type="button" disabled={action.busy} onClick={redeliver} aria-label={`Redeliver ${d.eventType} from ${when(d.createdAt)}`}>
          Redeliver
        </button>
      </div>
      <Feedback action={action} />
    </li>
  );
}

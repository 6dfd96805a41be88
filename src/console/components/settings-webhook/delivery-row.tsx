// One delivery of a webhook or a notification channel: status, what it carried, attempts, the
// receiver's answer, the next attempt, and "Redeliver" (the caller's request to send it again).
import { api, call } from "../../lib/api";
import type { Company } from "../../lib/companies";
import { ago, when } from "../../lib/format";
import { Feedback, useAction } from "../action";
import { StatusBadge } from "../badges";

/** What both delivery logs record (a webhook's adds the latency and the answer's body; a channel's, the message's title). */
export interface Delivery {
  id: string;
  eventType: string;
  status: string;
  attempts: number;
  createdAt: string;
  responseStatus: number | null;
  nextAttemptAt: string | null;
  lastError: string | null;
  latencyMs?: number | null;
  responseBody?: string | null;
  title?: string;
}

export function DeliveryRow({ delivery: d, redeliver, onRedelivered }: { delivery: Delivery; redeliver: () => Promise<unknown>; onRedelivered: () => void }) {
  const action = useAction();
  const again = async () => {
    if (await action.run(redeliver, `${d.eventType} sent again.`)) onRedelivered();
  };
  return (
    <li>
      <StatusBadge status={d.status} /> <span class="mono">{d.eventType}</span>
      {d.title ? ` ${d.title}` : ""}{" "}
      <span class="meta">
        <time dateTime={d.createdAt} title={when(d.createdAt)}>
          {ago(d.createdAt)}
        </time>{" "}
        · {d.attempts} {d.attempts === 1 ? "attempt" : "attempts"}
        {d.responseStatus !== null ? ` · answered ${d.responseStatus}` : ""}
        {d.latencyMs != null ? ` in ${d.latencyMs} ms` : ""}
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
        <button type="button" disabled={action.busy} onClick={again} aria-label={`Redeliver ${d.eventType} from ${when(d.createdAt)}`}>
          Redeliver
        </button>
      </div>
      <Feedback action={action} />
    </li>
  );
}

/** A webhook delivery's row: redelivered through the webhook's route. */
export function WebhookDeliveryRow({
  delivery,
  company,
  webhookId,
  onRedelivered,
}: {
  delivery: Delivery;
  company: Company;
  webhookId: string;
  onRedelivered: () => void;
}) {
  const redeliver = () =>
    call(
      api.POST("/api/companies/{companyId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", {
        params: { path: { companyId: company.id, webhookId, deliveryId: delivery.id } },
      }),
    );
  return <DeliveryRow delivery={delivery} redeliver={redeliver} onRedelivered={onRedelivered} />;
}

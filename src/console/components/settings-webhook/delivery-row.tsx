// One delivery of a webhook: status, attempts, the receiver's answer, the next attempt, and "Redeliver".
import { api, call, type Schemas } from "../../lib/api";
import type { Company } from "../../lib/companies";
import { ago, when } from "../../lib/format";
import { Feedback, useAction } from "../action";
import { StatusBadge } from "../badges";

export function DeliveryRow({
  delivery: d,
  company,
  webhookId,
  onRedelivered,
}: {
  delivery: Schemas["WebhookDelivery"];
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

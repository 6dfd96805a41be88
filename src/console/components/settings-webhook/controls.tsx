// A webhook's controls: Enable / Disable, "Send test" (a ping), "Rotate secret" (the new secret
// shown once) and Delete (asked again first) — the same buttons a notification channel has
// (DeliveryControls) —; and the form that edits its URL, events and description.
import type { ComponentChildren } from "preact";
import { useLocation } from "preact-iso/router";
import { useState } from "preact/hooks";
import { api, call, type Schemas } from "../../lib/api";
import { type Company, companyPath } from "../../lib/companies";
import { submittedForm } from "../../lib/form";
import { eventList } from "../../lib/webhooks";
import { type Action, Feedback, Submit, useAction } from "../action";
import { TextField } from "../fields";
import { ShownOnce } from "../shown-once";

type Webhook = Schemas["Webhook"];

export function WebhookControls({ webhook: w, company, onChanged }: { webhook: Webhook; company: Company; onChanged: () => void }) {
  const { route } = useLocation();
  const action = useAction();
  const [secret, setSecret] = useState<string | null>(null);
  const path = { companyId: company.id, webhookId: w.id };
  const act = async <T,>(work: () => Promise<T>, done: string) => {
    const result = await action.run(work, done);
    if (result) onChanged();
    return result;
  };
  const remove = async () => {
    const deleted = await action.run(() => call(api.DELETE("/api/companies/{companyId}/webhooks/{webhookId}", { params: { path } })), undefined, {
      confirm: { question: "Delete this webhook? Its pending deliveries are dropped.", yes: "Delete webhook", no: "Keep the webhook" },
    });
    if (deleted) route(companyPath(company, "settings/webhooks"));
  };
  return (
    <DeliveryControls
      label="Webhook controls"
      action={action}
      enabled={w.enabled}
      onToggle={() =>
        act(
          () => call(api.PATCH("/api/companies/{companyId}/webhooks/{webhookId}", { params: { path }, body: { enabled: !w.enabled } })),
          w.enabled ? "Webhook disabled." : "Webhook enabled.",
        )
      }
      onTest={() => act(() => call(api.POST("/api/companies/{companyId}/webhooks/{webhookId}/test", { params: { path } })), "Test ping sent.")}
      onDelete={remove}
      extra={
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
      }
    >
      {secret && <ShownOnce label="Signing secret" value={secret} onClose={() => setSecret(null)} />}
    </DeliveryControls>
  );
}

/**
 * The buttons of something that receives deliveries (a webhook, a notification channel): Enable /
 * Disable, "Send test", any `extra` buttons and Delete (the caller asks first, through `action`), then
 * `children` and the action's feedback.
 */
export function DeliveryControls({
  label,
  action,
  enabled,
  onToggle,
  onTest,
  onDelete,
  extra,
  children,
}: {
  label: string;
  action: Action;
  enabled: boolean;
  onToggle: () => unknown;
  onTest: () => unknown;
  onDelete: () => unknown;
  extra?: ComponentChildren;
  children?: ComponentChildren;
}) {
  return (
    <section class="controls" aria-label={label}>
      <div class="actions">
        <button type="button" class={enabled ? "" : "primary"} disabled={action.busy} onClick={onToggle}>
          {enabled ? "Disable" : "Enable"}
        </button>
        <button type="button" disabled={action.busy} onClick={onTest}>
          Send test
        </button>
        {extra}
        <button type="button" class="danger" disabled={action.busy} aria-expanded={action.confirming !== null} onClick={onDelete}>
          Delete
        </button>
      </div>
      {children}
      <Feedback action={action} />
    </section>
  );
}

export function EditWebhook({ webhook: w, company, onSaved }: { webhook: Webhook; company: Company; onSaved: () => void }) {
  const action = useAction();
  const submit = async (event: Event) => {
    const { text } = submittedForm(event);
    const body = { url: text("url"), events: eventList(text("events")), description: text("description") || null };
    const path = { companyId: company.id, webhookId: w.id };
    if (await action.run(() => call(api.PATCH("/api/companies/{companyId}/webhooks/{webhookId}", { params: { path }, body })), "Webhook saved.")) onSaved();
  };
  return (
    <details class="edit">
      <summary>Edit URL, events and description</summary>
      <form class="stack narrow-form" onSubmit={submit}>
        <TextField label="URL" name="url" type="url" required maxLength={2000} defaultValue={w.url} />
        <TextField label="Events" name="events" required defaultValue={w.events.join(", ")} hint="Exact types, prefixes such as issue.*, or *." />
        <TextField label="Description" name="description" maxLength={500} defaultValue={w.description ?? ""} />
        <Submit action={action} label="Save webhook" />
      </form>
    </details>
  );
}

// The company's webhooks: each subscription's URL, the events it takes and whether it is enabled
// (or was disabled after a day of failures). "New webhook" subscribes a URL; its signing secret is
// shown once, here, and never again.
import { useState } from "preact/hooks";
import { Feedback, useAction } from "../components/action";
import { StatusBadge } from "../components/badges";
import { TextField } from "../components/fields";
import { SettingsNav } from "../components/settings-nav";
import { ShownOnce } from "../components/shown-once";
import { Async } from "../components/states";
import { api, call, type Schemas } from "../lib/api";
import { type Company, companyPath } from "../lib/companies";
import { ago } from "../lib/format";
import { submittedForm } from "../lib/form";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import { eventList } from "../lib/webhooks";
import type { CompanyPageProps } from "../routes";

export default function WebhooksPage({ company }: CompanyPageProps) {
  useTitle("Webhooks");
  const webhooks = useResource(() => call(api.GET("/api/companies/{companyId}/webhooks", { params: { path: { companyId: company.id } } })), [company.id], {
    types: [],
  });
  const [created, setCreated] = useState<Schemas["WebhookWithSecret"] | null>(null);
  return (
    <>
      <h1 tabIndex={-1}>Webhooks</h1>
      <SettingsNav company={company} />
      <p class="meta">A webhook receives the company's events as signed POST requests; each delivery and its answer is logged.</p>
      {created && (
        <ShownOnce label="Signing secret" value={created.secret} onClose={() => setCreated(null)}>
          <p class="meta">
            Verify each delivery's signature with it. <a href={companyPath(company, `settings/webhooks/${created.id}`)}>Open the webhook</a>.
          </p>
        </ShownOnce>
      )}
      <Async resource={webhooks} what="webhooks" empty="No webhooks yet.">
        {(list) => (
          <ul class="rows webhook-list">
            {list.map((w) => (
              <li key={w.id}>
                <a href={companyPath(company, `settings/webhooks/${w.id}`)} class="mono">
                  {w.url}
                </a>{" "}
                <StatusBadge status={w.enabled ? "enabled" : "disabled"} />{" "}
                <span class="meta">
                  {w.events.join(", ")}
                  {w.description ? ` · ${w.description}` : ""}
                  {w.disabledReason ? ` · ${w.disabledReason}` : ""}
                  {w.failingSince ? ` · failing since ${ago(w.failingSince)}` : ""}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Async>
      <NewWebhook
        company={company}
        onCreated={(w) => {
          setCreated(w);
          void webhooks.reload();
        }}
      />
    </>
  );
}

function NewWebhook({ company, onCreated }: { company: Company; onCreated: (w: Schemas["WebhookWithSecret"]) => void }) {
  const action = useAction();
  const submit = async (event: Event) => {
    const { element, text } = submittedForm(event);
    const created = await action.run(
      () =>
        call(
          api.POST("/api/companies/{companyId}/webhooks", {
            params: { path: { companyId: company.id } },
            body: { url: text("url"), events: eventList(text("events") || "*"), description: text("description") || null },
          }),
        ),
      "Webhook created.",
    );
    if (created) {
      element.reset();
      onCreated(created);
    }
  };
  return (
    <form class="card stack narrow-form" onSubmit={submit} aria-labelledby="new-webhook">
      <h2 id="new-webhook">New webhook</h2>
      <TextField label="URL" name="url" type="url" required maxLength={2000} placeholder="https://example.com/hooks/acp" />
      <TextField
        label="Events"
        name="events"
        defaultValue="*"
        hint="Event types separated by commas: an exact type (run.finished), a prefix (issue.*) or * for every event."
      />
      <TextField label="Description" name="description" maxLength={500} />
      <Feedback action={action} />
      <button type="submit" class="primary" disabled={action.busy}>
        Create webhook
      </button>
    </form>
  );
}

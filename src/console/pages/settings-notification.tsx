// One notification channel: Enable / Disable, "Send test" (its result said at once: delivered, or the
// service's refusal), Delete (asked first), its name, events and digest, and its delivery log —
// status, what was sent, attempts, the service's answer, the next attempt — with "Redeliver" on each.
// Deliveries are announced by no event, so the log is read again every few seconds while one is pending.
import { useLocation } from "preact-iso/router";
import { useEffect, useState } from "preact/hooks";
import { type Action, Submit, useAction } from "../components/action";
import { StatusBadge } from "../components/badges";
import { SelectField, TextField } from "../components/fields";
import { SettingsNav } from "../components/settings-nav";
import { DeliveryControls } from "../components/settings-webhook/controls";
import { DeliveryRow } from "../components/settings-webhook/delivery-row";
import { Async } from "../components/states";
import { ApiError, api, call } from "../lib/api";
import { type Company, companyPath } from "../lib/companies";
import { type FieldErrors, fieldErrors, placeErrors } from "../lib/field-errors";
import { submittedForm } from "../lib/form";
import { ago } from "../lib/format";
import { loadStopped } from "../lib/inbox";
import { type Channel, hourLabel, kindLabel, NOTABLE_EVENTS, type NotificationDelivery, targetSummary, timeZones } from "../lib/notifications";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import { eventList } from "../lib/webhooks";
import type { CompanyPageProps } from "../routes";

const PENDING_POLL_MS = 2000;
const PAGE = 50;

export default function ChannelPage({ company, params }: CompanyPageProps) {
  const path = { companyId: company.id, channelId: params.channelId };
  const channel = useResource(
    () => call(api.GET("/api/companies/{companyId}/notification-channels/{channelId}", { params: { path } })),
    [company.id, params.channelId],
    { types: ["notification_channel.*"], when: (e) => e.subject.id === params.channelId },
  );
  const secrets = useResource(
    () => call(api.GET("/api/companies/{companyId}/secrets", { params: { path: { companyId: company.id } } })).catch(() => []),
    [company.id],
  );
  const [limit, setLimit] = useState(PAGE);
  const deliveries = useResource(
    () => call(api.GET("/api/companies/{companyId}/notification-channels/{channelId}/deliveries", { params: { path, query: { limit } } })),
    [company.id, params.channelId, limit],
    { types: [] },
  );
  const pending = deliveries.data?.some((d) => d.status === "pending");
  useEffect(() => {
    if (!pending || deliveries.loading) return;
    const timer = setTimeout(() => void deliveries.reload(), PENDING_POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, deliveries.data, deliveries.loading]);
  useTitle(channel.data ? `Notification channel ${channel.data.name}` : "Notification channel");
  const secretName = (id: string) => secrets.data?.find((s) => s.id === id)?.name;
  return (
    <>
      <p class="meta">
        <a href={companyPath(company, "settings/notifications")}>Notifications</a>
      </p>
      <Async resource={channel} what="the channel">
        {(c) => (
          <>
            <h1 tabIndex={-1}>{c.name}</h1>
            <SettingsNav company={company} />
            <p class="meta">
              <span class="badge">{kindLabel(c.kind)}</span> <StatusBadge status={c.enabled ? "enabled" : "disabled"} /> created {ago(c.createdAt)} ·{" "}
              {targetSummary(c, secretName)}
              {c.failingSince ? ` · failing since ${ago(c.failingSince)}` : ""}
            </p>
            {c.disabledReason && <p class="error">Disabled: {c.disabledReason}. Fix the channel, then enable it again.</p>}
            <ChannelControls
              channel={c}
              company={company}
              onChanged={() => {
                void channel.reload();
                void deliveries.reload();
                void loadStopped(company.id);
              }}
            />
            <EditChannel channel={c} company={company} onSaved={() => void channel.reload()} />
            <section aria-labelledby="channel-deliveries">
              <h2 id="channel-deliveries">Deliveries</h2>
              <Async resource={deliveries} what="deliveries" empty="No deliveries yet. “Send test” sends a test message.">
                {(list) => (
                  <>
                    <ul class="rows deliveries">
                      {list.map((d) => (
                        <ChannelDeliveryRow key={d.id} delivery={d} company={company} channelId={c.id} onRedelivered={() => void deliveries.reload()} />
                      ))}
                    </ul>
                    {list.length >= limit && (
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

function ChannelDeliveryRow({
  delivery,
  company,
  channelId,
  onRedelivered,
}: {
  delivery: NotificationDelivery;
  company: Company;
  channelId: string;
  onRedelivered: () => void;
}) {
  const redeliver = () =>
    call(
      api.POST("/api/companies/{companyId}/notification-channels/{channelId}/deliveries/{deliveryId}/redeliver", {
        params: { path: { companyId: company.id, channelId, deliveryId: delivery.id } },
      }),
    );
  return <DeliveryRow delivery={delivery} redeliver={redeliver} onRedelivered={onRedelivered} />;
}

/** What a test message's delivery says, as the outcome of "Send test" (thrown: shown as an error). */
function testOutcome(d: NotificationDelivery): string {
  if (d.status === "succeeded") return `Test message delivered${d.responseStatus !== null ? ` (the service answered ${d.responseStatus})` : ""}.`;
  const why = d.lastError ?? (d.responseStatus !== null ? `the service answered ${d.responseStatus}` : "no answer");
  throw new Error(d.status === "pending" ? `The test message is not delivered yet (${why}); it will be tried again.` : `The test message failed: ${why}.`);
}

function ChannelControls({ channel: c, company, onChanged }: { channel: Channel; company: Company; onChanged: () => void }) {
  const { route } = useLocation();
  const action: Action = useAction();
  const path = { companyId: company.id, channelId: c.id };
  const remove = async () => {
    const deleted = await action.run(() => call(api.DELETE("/api/companies/{companyId}/notification-channels/{channelId}", { params: { path } })), undefined, {
      confirm: {
        question: `Delete the channel “${c.name}”? Its delivery log goes with it (its secret stays among the company's secrets).`,
        yes: "Delete channel",
        no: "Keep the channel",
      },
    });
    if (deleted) route(companyPath(company, "settings/notifications"));
  };
  return (
    <DeliveryControls
      label="Channel controls"
      action={action}
      enabled={c.enabled}
      onToggle={async () => {
        const changed = await action.run(
          () => call(api.PATCH("/api/companies/{companyId}/notification-channels/{channelId}", { params: { path }, body: { enabled: !c.enabled } })),
          c.enabled ? "Channel disabled." : "Channel enabled.",
        );
        if (changed) onChanged();
      }}
      onTest={async () => {
        await action.run(
          async () => {
            try {
              return testOutcome(await call(api.POST("/api/companies/{companyId}/notification-channels/{channelId}/test", { params: { path } })));
            } finally {
              onChanged();
            }
          },
          (message) => message,
        );
      }}
      onDelete={remove}
    />
  );
}

function EditChannel({ channel: c, company, onSaved }: { channel: Channel; company: Company; onSaved: () => void }) {
  const action = useAction();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [digestHour, setDigestHour] = useState(c.digestHour === null ? "" : String(c.digestHour));
  const [timeZone, setTimeZone] = useState(c.timeZone);
  const submit = async (event: Event) => {
    const { text } = submittedForm(event);
    const body = {
      name: text("name"),
      events: eventList(text("events") || "*"),
      digestHour: digestHour === "" ? null : Number(digestHour),
      ...(digestHour !== "" ? { timeZone } : {}),
    };
    const saved = await action.run(async () => {
      try {
        return await call(
          api.PATCH("/api/companies/{companyId}/notification-channels/{channelId}", { params: { path: { companyId: company.id, channelId: c.id } }, body }),
        );
      } catch (err) {
        if (err instanceof ApiError) setErrors(placeErrors(fieldErrors(err.message, err.details), ["name", "events", "digestHour", "timeZone"]));
        throw err;
      }
    }, "Channel saved.");
    if (saved) {
      setErrors({});
      onSaved();
    }
  };
  return (
    <details class="edit">
      <summary>Edit name, events and digest</summary>
      <form class="stack narrow-form" onSubmit={submit}>
        <TextField label="Name" name="name" required maxLength={100} defaultValue={c.name} error={errors.name} />
        <TextField
          label="Events"
          name="events"
          required
          defaultValue={c.events.join(", ")}
          error={errors.events}
          hint={`* (every notable event) or any of ${NOTABLE_EVENTS.join(", ")}.`}
        />
        <SelectField
          label="Daily digest"
          value={digestHour}
          error={errors.digestHour}
          options={[{ value: "", label: "None" }, ...Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `At ${hourLabel(h)}` }))]}
          onChange={(e) => setDigestHour(e.currentTarget.value)}
        />
        {digestHour !== "" && (
          <SelectField
            label="Digest time zone"
            value={timeZone}
            error={errors.timeZone}
            options={timeZones(timeZone).map((z) => ({ value: z, label: z }))}
            onChange={(e) => setTimeZone(e.currentTarget.value)}
          />
        )}
        <Submit action={action} label="Save channel" />
      </form>
    </details>
  );
}

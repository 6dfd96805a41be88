// The company's notification channels (Settings › Notifications): each channel's kind, name, the
// events it takes, whether it is enabled (or was disabled after a day of failures, and why), and its
// target only as the API shows it — a reference to the company secret that keeps the URL, token or
// key. "New channel" adds one; each channel's page sends a test and shows its delivery log.
import { NewChannel } from "../components/notifications/new-channel";
import { StatusBadge } from "../components/badges";
import { SettingsNav } from "../components/settings-nav";
import { Async } from "../components/states";
import { api, call } from "../lib/api";
import { companyPath } from "../lib/companies";
import { ago } from "../lib/format";
import { kindLabel, targetSummary } from "../lib/notifications";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";
import { useLocation } from "preact-iso/router";

export default function NotificationsPage({ company }: CompanyPageProps) {
  useTitle("Notifications");
  const { route } = useLocation();
  const path = { companyId: company.id };
  const channels = useResource(() => call(api.GET("/api/companies/{companyId}/notification-channels", { params: { path } })), [company.id], {
    types: ["notification_channel.*"],
  });
  const secrets = useResource(() => call(api.GET("/api/companies/{companyId}/secrets", { params: { path } })).catch(() => []), [company.id]);
  const secretName = (id: string) => secrets.data?.find((s) => s.id === id)?.name;
  return (
    <>
      <h1 tabIndex={-1}>Notifications</h1>
      <SettingsNav company={company} />
      <p class="meta">
        Channels tell people where they already are — Slack, Discord, Microsoft Teams, Telegram or email — when an approval waits, an agent asks a question, an
        issue is blocked, a run fails, a budget is crossed or a channel stops working. What reaches you yourself (email, push on this device, quiet hours):{" "}
        <a href={companyPath(company, "settings/my-notifications")}>My notifications</a>.
      </p>
      <Async resource={channels} what="notification channels" empty="No notification channels yet.">
        {(list) => (
          <ul class="rows channel-list">
            {list.map((c) => (
              <li key={c.id}>
                <a href={companyPath(company, `settings/notifications/${c.id}`)}>{c.name}</a> <span class="badge">{kindLabel(c.kind)}</span>{" "}
                <StatusBadge status={c.enabled ? "enabled" : "disabled"} />{" "}
                <span class="meta">
                  {c.events.join(", ")} · {targetSummary(c, secretName)}
                  {c.digestHour !== null ? ` · digest at ${String(c.digestHour).padStart(2, "0")}:00 ${c.timeZone}` : ""}
                  {c.failingSince ? ` · failing since ${ago(c.failingSince)}` : ""}
                </span>
                {c.disabledReason && <p class="error">Disabled: {c.disabledReason}</p>}
              </li>
            ))}
          </ul>
        )}
      </Async>
      <NewChannel
        company={company}
        secrets={secrets.data ?? []}
        onCreated={(c) => {
          void channels.reload();
          void secrets.reload();
          route(companyPath(company, `settings/notifications/${c.id}`));
        }}
      />
    </>
  );
}

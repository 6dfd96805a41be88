// The settings sections, each its own page (so each is a deep link): the company and its branding,
// members and invites, secrets, webhooks, the company's notification channels, and the signed-in
// member's own notifications.
import { useLocation } from "preact-iso/router";
import { type Company, companyPath } from "../lib/companies";

const SECTIONS = [
  { rest: "settings", label: "Company" },
  { rest: "settings/members", label: "Members and invites" },
  { rest: "settings/secrets", label: "Secrets" },
  { rest: "settings/webhooks", label: "Webhooks" },
  { rest: "settings/notifications", label: "Notifications" },
  { rest: "settings/my-notifications", label: "My notifications" },
];

export function SettingsNav({ company }: { company: Company }) {
  const { path } = useLocation();
  return (
    <nav class="views" aria-label="Settings sections">
      {SECTIONS.map((s) => {
        const href = companyPath(company, s.rest);
        const current = path === href || (s.rest !== "settings" && path.startsWith(`${href}/`));
        return (
          <a key={s.rest} href={href} aria-current={current ? "page" : undefined}>
            {s.label}
          </a>
        );
      })}
    </nav>
  );
}

// The frame of every page: a skip link, the header (product, company, search, live status, user), the
// company navigation with the inbox count, and <main>, which takes the focus after a navigation
// so a screen reader starts at the new page.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { useLocation } from "preact-iso/router";
import { useAction } from "./action";
import { SearchBox } from "./search-box";
import { type Company, companyPath } from "../lib/companies";
import { closeCompany } from "../lib/follow";
import { inboxCount } from "../lib/inbox";
import { liveMode } from "../lib/live";
import { wikiReady } from "../lib/plugins";
import { deploymentMode, session, signOut } from "../lib/session";
import { companyNav } from "../routes";

const LIVE_LABEL = { off: "", connecting: "Connecting…", live: "Live", polling: "Polling" } as const;

let navigated = false;

export function Layout({ company, children }: { company?: Company; children: ComponentChildren }) {
  const { path, url } = useLocation();
  const main = useRef<HTMLElement>(null);
  useEffect(() => {
    if (navigated) main.current?.focus();
    navigated = true;
  }, [url]);
  const count = inboxCount.value;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={company ? companyPath(company, "dashboard") : "/"}>
          Agent Control Plane
        </a>
        {company && (
          <span class="company">
            {company.logoUrl && <img class="logo" src={company.logoUrl} alt="" />}
            <span class="company-name">{company.name}</span> <a href="/companies">Switch company</a>
          </span>
        )}
        {company && <SearchBox company={company} />}
        <span class="spacer" />
        <a href="/plugins" aria-current={path === "/plugins" ? "page" : undefined}>
          Plugins
        </a>
        {company && liveMode.value !== "off" && (
          <span class={`live live-${liveMode.value}`} role="status" title="Updates from the company's event stream">
            {LIVE_LABEL[liveMode.value]}
          </span>
        )}
        <UserMenu />
      </header>
      {company && (
        <nav class="nav" aria-label="Company">
          <ul>
            {companyNav
              .filter((item) => !item.plugin || wikiReady.value)
              .map((item) => {
                const href = companyPath(company, item.rest);
                const current = path === href || (item.rest !== "" && path.startsWith(`${href}/`));
                return (
                  <li key={item.rest}>
                    <a href={href} aria-current={current ? "page" : undefined}>
                      {item.label}
                      {item.badge === "inbox" && count !== null && count > 0 && (
                        <span class="count">
                          {" "}
                          <span aria-hidden="true">{count}</span>
                          <span class="visually-hidden">({count} waiting)</span>
                        </span>
                      )}
                    </a>
                  </li>
                );
              })}
          </ul>
        </nav>
      )}
      <main id="main" ref={main} tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

function UserMenu() {
  const { route } = useLocation();
  const action = useAction();
  const user = session.value?.user;
  if (!user) return null;
  if (deploymentMode.value === "local_trusted") return <span class="user">{user.name}</span>;
  const leave = async () => {
    const left = await action.run(
      async () => {
        await signOut();
        return true;
      },
      undefined,
      { failed: (message) => `Sign-out failed: ${message}` },
    );
    if (!left) return;
    closeCompany();
    route("/sign-in", true);
  };
  return (
    <span class="user">
      {user.name}{" "}
      <button type="button" class="link" onClick={leave}>
        Sign out
      </button>
      {action.error && (
        <span role="alert" class="error">
          {" "}
          {action.error}
        </span>
      )}
    </span>
  );
}

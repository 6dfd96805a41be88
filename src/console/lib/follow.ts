// Opening a company: it becomes the current one (remembered for the next visit), and its event
// stream, inbox, agents, the plugins it may use and the company itself (its name, branding and logo
// in the header: company.updated) are followed until another company is opened.
import { type Company, currentCompany, loadCompanies, rememberCompany } from "./companies";
import { followAgents } from "./agents";
import { followInbox } from "./inbox";
import { follow, subscribe } from "./live";
import { followPlugins } from "./plugins";

let stopFollowing: (() => void) | null = null;

export function openCompany(company: Company) {
  const same = currentCompany.value?.id === company.id && stopFollowing;
  currentCompany.value = company;
  if (same) return;
  rememberCompany(company);
  stopFollowing?.();
  follow(company.id);
  const stops = [
    followInbox(company.id),
    followAgents(company.id),
    followPlugins(),
    subscribe(["company.updated"], () => void loadCompanies().catch(() => {})),
  ];
  stopFollowing = () => {
    for (const stop of stops) stop();
  };
}

/** Leaves the company (the picker, signing out): nothing is followed. */
export function closeCompany() {
  stopFollowing?.();
  stopFollowing = null;
  currentCompany.value = null;
  follow(null);
}

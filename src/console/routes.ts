// Every page of the console: its path, who may open it and where it sits in the navigation. A new
// page is a file in pages/ and one row here. Pages load as their own chunks on first visit.
//   access "public":  anyone (sign-in);  "board": a signed-in board user (local_trusted: everyone);
//   "company": a board user inside a company; the path starts with /:company (its issue prefix),
//              the page gets `company`, and the company's navigation and live events come with it.
import type { ComponentType } from "preact";
import lazy from "preact-iso/lazy";
import type { Company } from "./lib/companies";

export interface PageProps {
  /** The URL's path. */
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
}
export interface CompanyPageProps extends PageProps {
  company: Company;
}

export interface PageRoute {
  path: string;
  access: "public" | "board" | "company";
  // biome-ignore lint/suspicious/noExplicitAny: pages take PageProps or CompanyPageProps by access
  page: ComponentType<any>;
  /** Company navigation entry (company pages only), in table order; `plugin`: shown only while that plugin is ready. */
  nav?: { label: string; badge?: "inbox"; plugin?: "knowledge-wiki" };
}

const SignIn = lazy(() => import("./pages/sign-in"));
const Companies = lazy(() => import("./pages/companies"));
const CliAuth = lazy(() => import("./pages/cli-auth"));
const Plugins = lazy(() => import("./pages/plugins"));
const Dashboard = lazy(() => import("./pages/dashboard"));
const Inbox = lazy(() => import("./pages/inbox"));
const Issues = lazy(() => import("./pages/issues"));
const NewIssue = lazy(() => import("./pages/issue-new"));
const Issue = lazy(() => import("./pages/issue"));
const Agents = lazy(() => import("./pages/agents"));
const Agent = lazy(() => import("./pages/agent"));
const HireAgent = lazy(() => import("./pages/agent-hire"));
const Projects = lazy(() => import("./pages/projects"));
const Project = lazy(() => import("./pages/project"));
const Goals = lazy(() => import("./pages/goals"));
const Goal = lazy(() => import("./pages/goal"));
const Routines = lazy(() => import("./pages/routines"));
const Routine = lazy(() => import("./pages/routine"));
const Skills = lazy(() => import("./pages/skills"));
const Run = lazy(() => import("./pages/run"));
const Wiki = lazy(() => import("./pages/wiki"));
const WikiPage = lazy(() => import("./pages/wiki-page"));
const Costs = lazy(() => import("./pages/costs"));
const Activity = lazy(() => import("./pages/activity"));
const Settings = lazy(() => import("./pages/settings"));
const Members = lazy(() => import("./pages/settings-members"));
const Secrets = lazy(() => import("./pages/settings-secrets"));
const Webhooks = lazy(() => import("./pages/settings-webhooks"));
const Webhook = lazy(() => import("./pages/settings-webhook"));
const Notifications = lazy(() => import("./pages/settings-notifications"));
const NotificationChannel = lazy(() => import("./pages/settings-notification"));
const MyNotifications = lazy(() => import("./pages/my-notifications"));
const Approvals = lazy(() => import("./pages/approvals"));

// First match wins: fixed paths before /:company ones.
export const routes: PageRoute[] = [
  { path: "/sign-in", access: "public", page: SignIn },
  { path: "/cli-auth/:challengeId", access: "board", page: CliAuth },
  { path: "/", access: "board", page: Companies },
  { path: "/companies", access: "board", page: Companies },
  { path: "/plugins", access: "board", page: Plugins },
  { path: "/:company", access: "company", page: Dashboard },
  { path: "/:company/dashboard", access: "company", page: Dashboard, nav: { label: "Dashboard" } },
  { path: "/:company/inbox", access: "company", page: Inbox, nav: { label: "Waiting on you", badge: "inbox" } },
  { path: "/:company/approvals", access: "company", page: Approvals },
  { path: "/:company/issues", access: "company", page: Issues, nav: { label: "Issues" } },
  { path: "/:company/issues/new", access: "company", page: NewIssue },
  { path: "/:company/issues/:issueId", access: "company", page: Issue },
  { path: "/:company/agents", access: "company", page: Agents, nav: { label: "Agents" } },
  { path: "/:company/agents/new", access: "company", page: HireAgent },
  { path: "/:company/agents/:agentId", access: "company", page: Agent },
  { path: "/:company/runs/:runId", access: "company", page: Run },
  { path: "/:company/projects", access: "company", page: Projects, nav: { label: "Projects" } },
  { path: "/:company/projects/:projectId", access: "company", page: Project },
  { path: "/:company/goals", access: "company", page: Goals, nav: { label: "Goals" } },
  { path: "/:company/goals/:goalId", access: "company", page: Goal },
  { path: "/:company/routines", access: "company", page: Routines, nav: { label: "Routines" } },
  { path: "/:company/routines/:routineId", access: "company", page: Routine },
  { path: "/:company/skills", access: "company", page: Skills, nav: { label: "Skills" } },
  { path: "/:company/wiki", access: "company", page: Wiki, nav: { label: "Wiki", plugin: "knowledge-wiki" } },
  { path: "/:company/wiki/page", access: "company", page: WikiPage },
  { path: "/:company/costs", access: "company", page: Costs, nav: { label: "Costs" } },
  { path: "/:company/activity", access: "company", page: Activity, nav: { label: "Activity" } },
  { path: "/:company/settings", access: "company", page: Settings, nav: { label: "Settings" } },
  { path: "/:company/settings/members", access: "company", page: Members },
  { path: "/:company/settings/secrets", access: "company", page: Secrets },
  { path: "/:company/settings/webhooks", access: "company", page: Webhooks },
  { path: "/:company/settings/webhooks/:webhookId", access: "company", page: Webhook },
  { path: "/:company/settings/notifications", access: "company", page: Notifications },
  { path: "/:company/settings/notifications/:channelId", access: "company", page: NotificationChannel },
  { path: "/:company/settings/my-notifications", access: "company", page: MyNotifications },
];

/** The navigation: company pages with a nav entry, as paths below the company. */
export const companyNav = routes.filter((r) => r.access === "company" && r.nav).map((r) => ({ ...r.nav!, rest: r.path.replace(/^\/:company\/?/, "") }));

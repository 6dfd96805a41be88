// Every route module, in mount order.
import { serviceRouter } from "./service";
import { authRouter } from "./auth";
import { cliAuthRouter } from "./cli-auth";
import { companiesRouter } from "./companies";
import { activityRouter } from "./activity";
import { issuesAgentViewsRouter } from "./issues/agent-views";
import { issuesRouter } from "./issues/issues";
import { issueCheckoutRouter } from "./issues/checkout";
import { issueCommentsRouter } from "./issues/comments";
import { issueActivityRouter } from "./issues/activity";
import { issueLabelsRouter } from "./issues/labels";
import { goalsRouter } from "./goals";
import { secretsRouter } from "./secrets";
import { projectsRouter } from "./projects";
import { projectWorkspacesRouter } from "./project-workspaces";
import { costsRouter } from "./costs";
import { budgetsRouter } from "./budgets";
import { approvalsRouter } from "./approvals";
import { questionsRouter } from "./questions";
import { notificationsRouter } from "./notifications";
import { invitesRouter } from "./access/invites";
import { gatewayInviteRouter } from "./access/gateway-invite";
import { joinRequestsRouter } from "./access/join-requests";
import { membersRouter } from "./access/members";
import { adminRouter } from "./access/admin";
import { instanceRouter } from "./instance";
import { shardsRouter } from "./shards";
import { sidebarRouter } from "./access/sidebar";
import { boardClaimRouter } from "./access/board-claim";
import { dashboardRouter } from "./dashboard";
import { searchRouter } from "./search";
import { documentsRouter } from "./documents";
import { annotationsRouter } from "./annotations";
import { attachmentsRouter } from "./attachments";
import { assetsRouter } from "./assets";
import { artifactsRouter } from "./artifacts";
import { agentsRouter } from "./agents";
import { llmsRouter } from "./llms";
import { environmentsRouter } from "./environments";
import { executionWorkspacesRouter } from "./execution-workspaces";
import { runsRouter } from "./runs";
import { routinesRouter } from "./routines";
import { skillsRouter } from "./skills";
import { feedbackRouter } from "./feedback";
import { portabilityRouter } from "./portability";
import { runnersRouter } from "./runners";
import { agentRuntimeRouter } from "./agent-runtime";
import { webhooksRouter } from "./webhooks";
import { eventsRouter } from "./events";
import { pluginsRouter } from "./plugins";
import { wikiRouter } from "./wiki";

// issuesAgentViewsRouter (/api/agents/me/inbox-lite) must come before agentsRouter (/api/agents/{agentId}).
export const routeModules = [
  serviceRouter,
  authRouter,
  cliAuthRouter,
  // Before companiesRouter: /api/companies/import/preview is not a company id.
  portabilityRouter,
  companiesRouter,
  activityRouter,
  issuesAgentViewsRouter,
  runsRouter,
  routinesRouter,
  skillsRouter,
  feedbackRouter,
  issuesRouter,
  issueCheckoutRouter,
  issueCommentsRouter,
  issueActivityRouter,
  issueLabelsRouter,
  goalsRouter,
  secretsRouter,
  projectsRouter,
  projectWorkspacesRouter,
  costsRouter,
  budgetsRouter,
  approvalsRouter,
  questionsRouter,
  notificationsRouter,
  invitesRouter,
  gatewayInviteRouter,
  joinRequestsRouter,
  membersRouter,
  adminRouter,
  instanceRouter,
  shardsRouter,
  sidebarRouter,
  boardClaimRouter,
  dashboardRouter,
  searchRouter,
  documentsRouter,
  annotationsRouter,
  attachmentsRouter,
  assetsRouter,
  artifactsRouter,
  agentsRouter,
  llmsRouter,
  environmentsRouter,
  executionWorkspacesRouter,
  runnersRouter,
  agentRuntimeRouter,
  webhooksRouter,
  eventsRouter,
  // After the host's own routes: /api/plugins/tools is not a plugin id.
  pluginsRouter,
  wikiRouter,
];

// Every route module, in mount order.
import { serviceRouter } from "./service";
import { authRouter } from "./auth";
import { cliAuthRouter } from "./cli-auth";
import { companiesRouter } from "./companies";
import { activityRouter } from "./activity";
import { issuesAgentViewsRouter } from "./issues-agent-views";
import { issuesRouter } from "./issues";
import { secretsRouter } from "./secrets";
import { costsRouter } from "./costs";
import { budgetsRouter } from "./budgets";
import { invitesRouter } from "./access/invites";
import { gatewayInviteRouter } from "./access/gateway-invite";
import { joinRequestsRouter } from "./access/join-requests";
import { membersRouter } from "./access/members";
import { adminRouter } from "./access/admin";
import { instanceRouter } from "./access/instance";
import { sidebarRouter } from "./access/sidebar";
import { boardClaimRouter } from "./access/board-claim";
import { documentsRouter } from "./documents";
import { annotationsRouter } from "./annotations";
import { attachmentsRouter } from "./attachments";
import { assetsRouter } from "./assets";
import { artifactsRouter } from "./artifacts";
import { agentsRouter } from "./agents";
import { llmsRouter } from "./llms";

export const routeModules = [serviceRouter, authRouter, cliAuthRouter, companiesRouter, activityRouter, issuesAgentViewsRouter, issuesRouter, secretsRouter, costsRouter, budgetsRouter, invitesRouter, gatewayInviteRouter, joinRequestsRouter, membersRouter, adminRouter, instanceRouter, sidebarRouter, boardClaimRouter, documentsRouter, annotationsRouter, attachmentsRouter, assetsRouter, artifactsRouter, agentsRouter, llmsRouter];

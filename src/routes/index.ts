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
import { documentsRouter } from "./documents";
import { annotationsRouter } from "./annotations";
import { attachmentsRouter } from "./attachments";
import { assetsRouter } from "./assets";
import { artifactsRouter } from "./artifacts";
import { agentsRouter } from "./agents";
import { llmsRouter } from "./llms";

export const routeModules = [serviceRouter, authRouter, cliAuthRouter, companiesRouter, activityRouter, issuesAgentViewsRouter, issuesRouter, secretsRouter, costsRouter, budgetsRouter, documentsRouter, annotationsRouter, attachmentsRouter, assetsRouter, artifactsRouter, agentsRouter, llmsRouter];

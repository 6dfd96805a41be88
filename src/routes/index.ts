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

export const routeModules = [serviceRouter, authRouter, cliAuthRouter, companiesRouter, activityRouter, issuesAgentViewsRouter, issuesRouter, secretsRouter, costsRouter, budgetsRouter];

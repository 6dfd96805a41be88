// Registry of every command the company Durable Object runs, by area.
import { companyCommands as companies } from "../domain/companies/commands";
import { activityCommands as activity } from "../domain/activity/commands";
import { issueCommands as issues } from "../domain/issues/commands";
import { checkoutCommands as checkouts } from "../domain/issues/checkout";
import { secretCommands as secrets } from "../domain/secrets/commands";
import { costCommands as costs } from "../domain/costs/commands";
import { budgetCommands as budgets } from "../domain/budgets/commands";
import { accessCommands as access } from "../domain/access/commands";
import { documentCommands as documents } from "../domain/documents/commands";
import { annotationCommands as annotations } from "../domain/documents/annotation-commands";
import { attachmentCommands as attachments } from "../domain/attachments/commands";
import { agentCommands as agents } from "../domain/agents/commands";

export const companyCommands = {
  ...companies,
  ...activity,
  ...issues,
  ...checkouts,
  ...secrets,
  ...costs,
  ...budgets,
  ...access,
  ...documents,
  ...annotations,
  ...attachments,
  ...agents,
};

export type CompanyCommands = typeof companyCommands;
export type CompanyCommandName = keyof CompanyCommands;

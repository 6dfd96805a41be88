// Registry of every command the company Durable Object runs, by area.
import { companyCommands as companies } from "../domain/companies/commands";
import { activityCommands as activity } from "../domain/activity/commands";
import { issueCommands as issues } from "../domain/issues/commands";
import { checkoutCommands as checkouts } from "../domain/issues/checkout";
import { secretCommands as secrets } from "../domain/secrets/commands";
import { goalCommands as goals } from "../domain/goals/commands";
import { costCommands as costs } from "../domain/costs/commands";
import { budgetCommands as budgets } from "../domain/budgets/commands";
import { projectCommands as projects } from "../domain/projects/commands";
import { accessCommands as access } from "../domain/access/commands";
import { documentCommands as documents } from "../domain/documents/commands";
import { annotationCommands as annotations } from "../domain/documents/annotation-commands";
import { attachmentCommands as attachments } from "../domain/attachments/commands";
import { approvalCommands as approvals } from "../domain/approvals/commands";
import { agentCommands as agents } from "../domain/agents/commands";
import { environmentCommands as environments } from "../domain/environments/commands";
import { executionWorkspaceCommands as executionWorkspaces } from "../domain/execution-workspaces/commands";

/** Every area's command map; names are unique across areas (test/command-registry.test.ts). */
export const commandAreas = {
  companies,
  activity,
  issues,
  checkouts,
  secrets,
  goals,
  costs,
  budgets,
  projects,
  access,
  documents,
  annotations,
  attachments,
  approvals,
  agents,
  environments,
  executionWorkspaces,
};

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type AllCommands = UnionToIntersection<(typeof commandAreas)[keyof typeof commandAreas]>;

export const companyCommands = Object.assign({}, ...Object.values(commandAreas)) as AllCommands;

export type CompanyCommands = typeof companyCommands;
export type CompanyCommandName = keyof CompanyCommands;

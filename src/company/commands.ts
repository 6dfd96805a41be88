// Registry of every command the company Durable Object runs: one list per area, merged into one
// map at start-up; a duplicate name refuses to start (test/unit/command-registry.test.ts).
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
import { questionCommands as questions } from "../domain/questions/commands";
import { channelCommands as notificationChannels } from "../domain/notifications/channels";
import { preferenceCommands as notificationPreferences } from "../domain/notifications/preferences";
import { agentCommands as agents } from "../domain/agents/commands";
import { environmentCommands as environments } from "../domain/environments/commands";
import { executionWorkspaceCommands as executionWorkspaces } from "../domain/execution-workspaces/commands";
import { runCommands as runs } from "../domain/runs/commands";
import { reportRemoteRun } from "../domain/runs/remote";
import { routineCrudCommands as routines } from "../domain/routines/commands";
import { fireRoutine } from "../domain/routines/fire";
import { routineTickCommands as routineTicks } from "../domain/routines/tick";
import { skillCommands as skills } from "../domain/skills/commands";
import { feedbackCommands as feedback } from "../domain/feedback/traces";
import { portabilityCommands as portability } from "../domain/portability/apply";
import { webhookCommands as webhooks } from "../domain/events/webhooks";
import { wikiCommands as wiki } from "../domain/wiki/commands";
import type { AnyCompanyCommand } from "./command";

export const commandLists: readonly (readonly AnyCompanyCommand[])[] = [
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
  questions,
  notificationChannels,
  notificationPreferences,
  agents,
  environments,
  executionWorkspaces,
  runs,
  [reportRemoteRun],
  routines,
  [fireRoutine],
  routineTicks,
  skills,
  feedback,
  portability,
  webhooks,
  wiki,
];

/** One map from name to command; throws on a duplicate name. */
export function buildCommandRegistry(lists: readonly (readonly AnyCompanyCommand[])[]): ReadonlyMap<string, AnyCompanyCommand> {
  const registry = new Map<string, AnyCompanyCommand>();
  for (const command of lists.flat()) {
    if (registry.has(command.name)) throw new Error(`Duplicate company command name: ${command.name}`);
    registry.set(command.name, command);
  }
  return registry;
}

export const commandRegistry = buildCommandRegistry(commandLists);

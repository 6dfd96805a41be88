// The command-line interface of this package (`acp`): see `acp --help`. Built to the standalone
// package dist/cli/ by `npm run build:cli` (esbuild, every dependency inlined). Every request
// goes through the typed client (src/client), so no request shape is written by hand here.
import { Command, CommanderError, Option } from "commander";
import { authCommands } from "./commands/auth";
import { adapterCommands, agentCommands, approvalCommands, companyCommands, costCommands, issueCommands, routineCommands } from "./commands/work";
import { runCommands } from "./commands/runs";
import { portabilityCommands, skillCommands } from "./commands/files";
import { runnerCommand } from "./commands/runner";
import { eventCommands } from "./commands/events";
import { webhookCommands } from "./commands/webhooks";
import { notifyCommands } from "./commands/notify";
import { pluginCommands } from "./commands/plugins";
import { shardCommands } from "./commands/shards";
import { CliError } from "./output";
import { cliVersion } from "./version";

const program = new Command()
  .name("acp")
  .description(
    "Agent control plane from the terminal: sign in, work with companies, agents, issues, approvals, costs, routines, runs and skills, follow events, manage webhooks and plugins, and run local agents",
  )
  .version(cliVersion)
  .addOption(new Option("--url <url>", "API base URL (saved by login)").env("ACP_URL"))
  .addOption(new Option("--token <key>", "API key (saved by login)").env("ACP_TOKEN"))
  .addOption(new Option("--company <id>", "company to work in (saved by company use)").env("ACP_COMPANY"))
  .option("--json", "print JSON (for scripts)")
  .showHelpAfterError()
  .exitOverride();

authCommands(program);
companyCommands(program);
agentCommands(program);
adapterCommands(program);
issueCommands(program);
approvalCommands(program);
costCommands(program);
routineCommands(program);
runCommands(program);
skillCommands(program);
portabilityCommands(program);
eventCommands(program);
webhookCommands(program);
notifyCommands(program);
pluginCommands(program);
shardCommands(program);
runnerCommand(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof CommanderError) {
    // Help and version exit 0; usage errors were already printed by commander.
    process.exitCode = err.exitCode;
    return;
  }
  process.stderr.write(`error: ${err instanceof CliError ? err.message : ((err as Error)?.message ?? String(err))}\n`);
  process.exitCode = 1;
});

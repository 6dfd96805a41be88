// `acp shards`: where companies live (instance admins): the shards with their company counts, and
// moving a company to another shard (fenced while it copies: its writes answer 503 + Retry-After).
import type { Command } from "commander";
import { cliContext, unwrap } from "../context";

export function shardCommands(program: Command) {
  const shards = program.command("shards").description("Company shards: list them, move a company (instance admin)");
  shards
    .command("list")
    .description("Each shard and how many companies it holds")
    .action(async (_o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const list = await unwrap(ctx.api.GET("/api/instance/shards"));
      ctx.out.table(list, [
        ["Shard", "shard"],
        ["Companies", (s) => String(s.companies)],
      ]);
    });
  shards
    .command("move")
    .description("Move a company to another shard: fence, copy, verify counts and hashes, switch, unfence")
    .argument("<companyId>")
    .requiredOption("--to <shard>", "the target shard binding, e.g. DB_SHARD_1")
    .action(async (companyId: string, opts: { to: string }, command: Command) => {
      const ctx = cliContext(command);
      const moved = await unwrap(ctx.api.POST("/api/instance/companies/{companyId}/move", { params: { path: { companyId } }, body: { shard: opts.to } }));
      const rows = moved.tables.reduce((sum, t) => sum + t.rows, 0);
      ctx.out.value(moved, () => `Moved ${moved.companyId} from ${moved.from} to ${moved.to}: ${moved.tables.length} tables, ${rows} rows verified`);
    });
}

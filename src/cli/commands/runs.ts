// Heartbeat runs: list, show, and logs (following a live run's events until it ends).
import type { Command } from "commander";
import { cliContext, unwrap, type CliContext } from "../context";
import { agentNames, issueIdentifiers } from "../names";
import { minute } from "../output";

const LIVE = new Set(["queued", "running", "scheduled_retry"]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function runCommands(program: Command) {
  const run = program.command("run").description("Heartbeat runs");
  run
    .command("list")
    .option("--agent <agentId>")
    .option("--status <status>")
    .option("--issue <issueId>")
    .option("--limit <n>", "at most this many", (v) => Number.parseInt(v, 10), 20)
    .action(async (opts: { agent?: string; status?: string; issue?: string; limit: number }, command: Command) => {
      const ctx = cliContext(command);
      const page = await unwrap(
        ctx.api.GET("/api/companies/{companyId}/heartbeat-runs", {
          params: {
            path: { companyId: ctx.companyId() },
            query: { agentId: opts.agent, status: opts.status as never, issueId: opts.issue, limit: opts.limit },
          },
        }),
      );
      const [agentName, issueIdentifier] = await Promise.all([
        agentNames(
          ctx,
          page.runs.map((r) => r.agentId),
        ),
        issueIdentifiers(
          ctx,
          page.runs.map((r) => r.issueId),
        ),
      ]);
      ctx.out.table(page.runs, [
        ["Id", "id"],
        ["Agent", (r) => agentName(r.agentId)],
        ["Status", "status"],
        ["Source", "invocationSource"],
        ["Issue", (r) => issueIdentifier(r.issueId)],
        ["Created", (r) => minute(r.createdAt)],
      ]);
    });
  run
    .command("show")
    .argument("<runId>")
    .action(async (runId: string, _o: unknown, command: Command) => {
      const ctx = cliContext(command);
      ctx.out.value(await unwrap(ctx.api.GET("/api/heartbeat-runs/{runId}", { params: { path: { runId } } })));
    });
  run
    .command("logs")
    .description("Print a run's events; --follow keeps printing until the run ends")
    .argument("<runId>")
    .option("-f, --follow", "follow a live run")
    .action(async (runId: string, opts: { follow?: boolean }, command: Command) => {
      const ctx = cliContext(command);
      await printEvents(ctx, runId, Boolean(opts.follow));
    });
}

async function printEvents(ctx: CliContext, runId: string, follow: boolean) {
  let afterSeq = 0;
  let finished: string | null = null;
  const all: unknown[] = [];
  for (;;) {
    const events = await unwrap(ctx.api.GET("/api/heartbeat-runs/{runId}/events", { params: { path: { runId }, query: { afterSeq, limit: 500 } } }));
    for (const event of events) {
      afterSeq = Math.max(afterSeq, event.seq);
      if (ctx.out.json) all.push(event);
      else process.stdout.write(`${event.createdAt} ${event.kind.padEnd(8)} ${(event.message ?? "").replace(/\n$/, "")}\n`);
    }
    if (events.length === 500) continue;
    if (!follow || finished) break;
    const current = await unwrap(ctx.api.GET("/api/heartbeat-runs/{runId}", { params: { path: { runId } } }));
    if (!LIVE.has(current.status)) {
      // One more read: the events written with the run's end.
      finished = `run ${runId} ${current.status}${current.error ? `: ${current.error}` : ""}`;
      continue;
    }
    await sleep(1000);
  }
  if (finished) ctx.out.note(finished);
  if (ctx.out.json) ctx.out.value(all);
}

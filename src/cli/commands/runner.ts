// `acp runner`: serve this company's process and <runtime>_local agents from this machine.
import type { Command } from "commander";
import { hostname } from "node:os";
import { cliContext, unwrap } from "../context";
import { CliError } from "../output";
import { startRunner } from "../runner";
import { isRunnerAdapter } from "../../protocol/runner";

export function runnerCommand(program: Command) {
  program
    .command("runner")
    .description("Execute this company's process and <runtime>_local agents on this machine (WebSocket to the service)")
    .option("--agent <id...>", "agents to serve (default: the key's agent, or every local agent of the company)")
    .option("--name <name>", "name shown in the runner list", hostname())
    .option("--max-runs <n>", "exit after this many runs (default: run until stopped)", (v) => Number.parseInt(v, 10))
    .action(async (opts: { agent?: string[]; name: string; maxRuns?: number }, command: Command) => {
      const ctx = cliContext(command);
      if (!ctx.token) throw new CliError("A key is needed: --token (a board key, or an agent key for its own agent), or acp login");
      let companyId = command.optsWithGlobals<{ company?: string }>().company || null;
      let agents = opts.agent ?? [];
      if (ctx.token.startsWith("svc_agent_")) {
        const me = await unwrap(ctx.api.GET("/api/agents/me"));
        companyId ??= me.companyId;
        if (!agents.length) agents = [me.id];
      }
      companyId ??= ctx.companyId();
      if (!agents.length) {
        const all = await unwrap(ctx.api.GET("/api/companies/{companyId}/agents", { params: { path: { companyId } } }));
        agents = all.filter((a) => isRunnerAdapter(a.adapterType)).map((a) => a.id);
        if (!agents.length) throw new CliError("The company has no process or <runtime>_local agent to serve");
      }
      const runner = startRunner({ url: ctx.url, token: ctx.token, companyId, agents, name: opts.name, maxRuns: opts.maxRuns });
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => runner.stop());
      await runner.stopped;
    });
}

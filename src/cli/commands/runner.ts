// `acp runner`: serve this company's process and <runtime>_local agents from this machine.
import type { Command } from "commander";
import { hostname } from "node:os";
import { cliContext, unwrap } from "../context";
import { CliError, printer } from "../output";
import { runDoctor, type DoctorResult } from "../doctor";
import { LOCAL_RUNTIMES, localRuntimeOf } from "../../protocol/local-runtimes";
import { startRunner } from "../runner";
import { isRunnerAdapter } from "../../protocol/runner";

export function runnerCommand(program: Command) {
  const runner = program
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
  runner
    .command("doctor")
    .description("Check this machine for the <runtime>_local agents: the CLI on PATH, its version, its sign-in, and a short hello probe")
    .argument("[types...]", "adapter types to check (default: those of the company's local agents, with their config)")
    .option("--no-probe", "skip the hello probe (a real, billed model call)")
    .action(async (types: string[], opts: { probe: boolean }, command: Command) => {
      const out = printer(Boolean(command.optsWithGlobals<{ json?: boolean }>().json));
      const targets: Array<{ adapterType: string; adapterConfig: Record<string, unknown>; label: string }> = [];
      if (types.length) {
        for (const type of types) {
          const adapterType = type.endsWith("_local") ? type : `${type}_local`;
          if (!localRuntimeOf(adapterType)) throw new CliError(`Unknown local runtime ${type}; one of ${LOCAL_RUNTIMES.join(", ")}`);
          targets.push({ adapterType, adapterConfig: {}, label: adapterType });
        }
      } else {
        const ctx = cliContext(command);
        const all = await unwrap(ctx.api.GET("/api/companies/{companyId}/agents", { params: { path: { companyId: ctx.companyId() } } }));
        for (const agent of all.filter((a) => localRuntimeOf(a.adapterType))) {
          const { env: _env, ...adapterConfig } = (agent.adapterConfig ?? {}) as Record<string, unknown>;
          targets.push({ adapterType: agent.adapterType, adapterConfig, label: `${agent.name} (${agent.adapterType})` });
        }
        if (!targets.length) throw new CliError("The company has no <runtime>_local agent; name a type: acp runner doctor claude_local");
      }
      const results: Array<{ target: string } & DoctorResult> = [];
      for (const target of targets) results.push({ target: target.label, ...(await runDoctor({ ...target, env: {}, probe: opts.probe })) });
      out.value(results, () =>
        results
          .map((r) =>
            [`${r.target}: ${r.status}`, ...r.checks.map((c) => `  ${c.level.padEnd(5)} ${c.code}: ${c.message}${c.hint ? `\n        ${c.hint}` : ""}`)].join(
              "\n",
            ),
          )
          .join("\n\n"),
      );
      if (results.some((r) => r.status === "fail")) process.exitCode = 1;
    });
}

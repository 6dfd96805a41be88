// The command-line interface of this package (`acp`): see `acp --help`. Built to dist/cli.cjs
// by `npm run build:cli` (esbuild; Node does not strip types inside node_modules).
import { Command, Option } from "commander";
import { hostname } from "node:os";
import { startRunner } from "./runner";

const program = new Command()
  .name("acp")
  .description("Agent control plane: run local agents, and work with companies, issues and runs from the terminal")
  .version("0.1.0")
  .showHelpAfterError();

async function getJson(url: string, token: string): Promise<any> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json().catch(() => null)) as any;
  if (!res.ok) throw new Error(`${res.status}: ${body?.error ?? res.statusText}`);
  return body;
}

const isRunnerAdapter = (type: string) => type === "process" || type.endsWith("_local");

program
  .command("runner")
  .description("Execute this company's process and <runtime>_local agents on this machine (WebSocket to the service)")
  .addOption(new Option("--url <url>", "API base URL").env("ACP_URL").makeOptionMandatory())
  .addOption(new Option("--token <key>", "board API key, or an agent API key (serves only its own agent)").env("ACP_TOKEN").makeOptionMandatory())
  .option("--company <id>", "company id (found from the key when it is an agent key)")
  .option("--agent <id...>", "agents to serve (default: the key's agent, or every local agent of the company)")
  .option("--name <name>", "name shown in the runner list", hostname())
  .option("--max-runs <n>", "exit after this many runs (default: run until stopped)", (v) => Number.parseInt(v, 10))
  .action(async (opts: { url: string; token: string; company?: string; agent?: string[]; name: string; maxRuns?: number }) => {
    const url = opts.url.replace(/\/+$/, "");
    let companyId = opts.company;
    let agents = opts.agent ?? [];
    if (!companyId || !agents.length) {
      const me = opts.token.startsWith("svc_agent_") ? await getJson(`${url}/api/agents/me`, opts.token) : null;
      companyId ??= me?.companyId;
      if (!companyId) throw new Error("--company is required with a board key");
      if (!agents.length) {
        agents = me ? [me.id] : (await getJson(`${url}/api/companies/${companyId}/agents`, opts.token)).filter((a: { adapterType: string }) => isRunnerAdapter(a.adapterType)).map((a: { id: string }) => a.id);
      }
    }
    const runner = startRunner({ url, token: opts.token, companyId: companyId!, agents, name: opts.name, maxRuns: opts.maxRuns });
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => runner.stop());
    await runner.stopped;
  });

program.parseAsync(process.argv).catch((err: Error) => {
  process.stderr.write(`error: ${err.message}\n`);
  process.exitCode = 1;
});

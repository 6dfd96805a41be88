// Daily work: companies, agents, issues, approvals, costs, routines.
import type { Command } from "commander";
import { loadConfig, saveConfig } from "../config";
import { cliContext, unwrap } from "../context";
import { agentNames } from "../names";
import { CliError, minute } from "../output";

const parseJson = (label: string) => (value: string) => {
  try {
    return JSON.parse(value) as Record<string, unknown>;
  } catch {
    throw new CliError(`${label} must be JSON`);
  }
};

export function companyCommands(program: Command) {
  const company = program.command("company").description("Companies you reach");
  company
    .command("list")
    .description("List companies")
    .action(async (_o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const companies = await unwrap(ctx.api.GET("/api/companies"));
      ctx.out.table(companies, [
        ["Id", "id"],
        ["Name", "name"],
        ["Prefix", "issuePrefix"],
        ["Status", "status"],
      ]);
    });
  company
    .command("create")
    .description("Create a company (and select it)")
    .argument("<name>")
    .option("--description <text>")
    .option("--budget <cents>", "monthly budget in cents", (v) => Number.parseInt(v, 10))
    .action(async (name: string, opts: { description?: string; budget?: number }, command: Command) => {
      const ctx = cliContext(command);
      const created = await unwrap(ctx.api.POST("/api/companies", { body: { name, description: opts.description, budgetMonthlyCents: opts.budget } }));
      saveConfig({ ...loadConfig(), url: ctx.url, companyId: created.id });
      ctx.out.value(created, () => `Created ${created.name} (${created.id}, prefix ${created.issuePrefix}); now selected`);
    });
  company
    .command("use")
    .description("Select the company later commands work in")
    .argument("<companyId>")
    .action(async (companyId: string, _o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const found = await unwrap(ctx.api.GET("/api/companies/{companyId}", { params: { path: { companyId } } }));
      saveConfig({ ...loadConfig(), url: ctx.url, companyId: found.id });
      ctx.out.value({ companyId: found.id, name: found.name }, () => `Now working in ${found.name} (${found.id})`);
    });
}

/** `--set field=value` pairs as adapterConfig, each value read as its field's JSON type says. */
export function configFields(fields: ReadonlyArray<{ name: string; type: string; enum?: string[] }>, pairs: readonly string[]): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at < 1) throw new CliError(`--set takes field=value; got "${pair}"`);
    const [name, raw] = [pair.slice(0, at), pair.slice(at + 1)];
    const field = fields.find((f) => f.name === name);
    if (!field) throw new CliError(`Unknown field ${name}; the adapter's fields: ${fields.map((f) => f.name).join(", ")}`);
    if (field.enum && !field.enum.includes(raw)) throw new CliError(`${name} must be one of ${field.enum.join(", ")}`);
    if (field.type === "integer" || field.type === "number") {
      const value = Number(raw);
      if (!Number.isFinite(value) || (field.type === "integer" && !Number.isInteger(value)))
        throw new CliError(`${name} must be a${field.type === "integer" ? "n integer" : " number"}`);
      config[name] = value;
    } else if (field.type === "boolean") {
      if (raw !== "true" && raw !== "false") throw new CliError(`${name} must be true or false`);
      config[name] = raw === "true";
    } else if (field.type === "object" || field.type === "array") config[name] = parseJson(`--set ${name}`)(raw);
    else config[name] = raw;
  }
  return config;
}

export function adapterCommands(program: Command) {
  const adapter = program.command("adapter").description("How agents can run: the adapter types and their config fields");
  adapter.command("list").action(async (_o: unknown, command: Command) => {
    const ctx = cliContext(command);
    const adapters = await unwrap(ctx.api.GET("/api/adapters"));
    ctx.out.table(adapters, [
      ["Type", "type"],
      ["Runs", "where"],
      ["Label", "label"],
    ]);
  });
  adapter
    .command("show")
    .argument("<type>")
    .action(async (type: string, _o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const adapters = await unwrap(ctx.api.GET("/api/adapters"));
      const found = adapters.find((a) => a.type === type);
      if (!found) throw new CliError(`Unknown adapter ${type}; one of ${adapters.map((a) => a.type).join(", ")}`);
      ctx.out.table(
        found.fields.map((f) => ({
          ...f,
          kind: `${f.enum ? f.enum.join("|") : f.type}${f.secret ? " (secret)" : ""}`,
          need: f.required ? "required" : f.default !== undefined ? `default ${JSON.stringify(f.default)}` : "",
        })),
        [
          ["Field", "name"],
          ["Type", "kind"],
          ["", "need"],
          ["Description", "description"],
        ],
      );
    });
}

export function agentCommands(program: Command) {
  const agent = program.command("agent").description("Agents of the selected company");
  agent.command("list").action(async (_o: unknown, command: Command) => {
    const ctx = cliContext(command);
    const agents = await unwrap(ctx.api.GET("/api/companies/{companyId}/agents", { params: { path: { companyId: ctx.companyId() } } }));
    ctx.out.table(agents, [
      ["Id", "id"],
      ["Name", "name"],
      ["Role", "role"],
      ["Adapter", "adapterType"],
      ["Status", "status"],
    ]);
  });
  agent
    .command("create")
    .argument("<name>")
    .requiredOption("--adapter <type>", "adapterType (http, process, claude_local, remote_gateway, llm_api, …: `acp adapter list`)")
    .option("--config <json>", "adapterConfig as JSON", parseJson("--config"), {})
    .option("--set <field=value...>", "adapterConfig fields one by one, typed as `acp adapter show <type>` lists them (e.g. --set maxTurns=10)")
    .option("--role <role>", "role", "general")
    .option("--title <title>")
    .action(
      async (name: string, opts: { adapter: string; config: Record<string, unknown>; set?: string[]; role: string; title?: string }, command: Command) => {
        const ctx = cliContext(command);
        let adapterConfig = opts.config;
        if (opts.set?.length) {
          const adapters = await unwrap(ctx.api.GET("/api/adapters"));
          const adapter = adapters.find((a) => a.type === opts.adapter);
          if (!adapter) throw new CliError(`Unknown adapter ${opts.adapter}; one of ${adapters.map((a) => a.type).join(", ")}`);
          adapterConfig = { ...adapterConfig, ...configFields(adapter.fields, opts.set) };
        }
        const created = await unwrap(
          ctx.api.POST("/api/companies/{companyId}/agents", {
            params: { path: { companyId: ctx.companyId() } },
            body: { name, adapterType: opts.adapter as never, adapterConfig, role: opts.role, title: opts.title },
          }),
        );
        ctx.out.value(created, () => `Created agent ${created.name} (${created.id})`);
      },
    );
  for (const action of ["pause", "resume"] as const) {
    agent
      .command(action)
      .argument("<agentId>")
      .action(async (agentId: string, _o: unknown, command: Command) => {
        const ctx = cliContext(command);
        const result = await unwrap(
          ctx.api.POST(action === "pause" ? "/api/agents/{agentId}/pause" : "/api/agents/{agentId}/resume", { params: { path: { agentId } } }),
        );
        ctx.out.value(result, () => `${result.name}: ${result.status}`);
      });
  }
  agent
    .command("reset-session")
    .description("Forget the agent's runtime sessions: its next runs start new ones")
    .argument("<agentId>")
    .option("--task <taskKey>", "only this task's session (issue:<issueId>, or agent)")
    .action(async (agentId: string, opts: { task?: string }, command: Command) => {
      const ctx = cliContext(command);
      const result = await unwrap(
        ctx.api.POST("/api/agents/{agentId}/runtime-state/reset-session", { params: { path: { agentId } }, body: opts.task ? { taskKey: opts.task } : {} }),
      );
      ctx.out.value(result, () => `Forgot ${result.cleared} session(s) of agent ${result.agentId}`);
    });
  agent
    .command("keys")
    .description("Create an API key for the agent (shown once)")
    .argument("<agentId>")
    .option("--name <name>", "key name", "cli")
    .action(async (agentId: string, opts: { name: string }, command: Command) => {
      const ctx = cliContext(command);
      const key = await unwrap(ctx.api.POST("/api/agents/{agentId}/keys", { params: { path: { agentId } }, body: { name: opts.name } }));
      ctx.out.value(key, () => `Key ${key.id} (shown once): ${key.token}`);
    });
}

export function issueCommands(program: Command) {
  const issue = program.command("issue").description("Issues (by UUID or identifier such as ABC-12)");
  issue
    .command("list")
    .option("--status <status>", "filter by status (comma-separated)")
    .option("--assignee <agentId>", "filter by assignee agent")
    .option("-q, --query <text>", "search")
    .action(async (opts: { status?: string; assignee?: string; query?: string }, command: Command) => {
      const ctx = cliContext(command);
      const issues = await unwrap(
        ctx.api.GET("/api/companies/{companyId}/issues", {
          params: { path: { companyId: ctx.companyId() }, query: { status: opts.status, assigneeAgentId: opts.assignee, q: opts.query } },
        }),
      );
      const agentName = await agentNames(
        ctx,
        issues.map((i) => i.assigneeAgentId),
      );
      ctx.out.table(issues, [
        ["Issue", "identifier"],
        ["Title", "title"],
        ["Status", "status"],
        ["Priority", "priority"],
        ["Assignee", (i) => agentName(i.assigneeAgentId)],
      ]);
    });
  issue
    .command("create")
    .argument("<title>")
    .option("--description <text>")
    .option("--assignee <agentId>")
    .option("--priority <priority>")
    .option("--status <status>")
    .action(async (title: string, opts: { description?: string; assignee?: string; priority?: string; status?: string }, command: Command) => {
      const ctx = cliContext(command);
      const created = await unwrap(
        ctx.api.POST("/api/companies/{companyId}/issues", {
          params: { path: { companyId: ctx.companyId() } },
          body: { title, description: opts.description, assigneeAgentId: opts.assignee, priority: opts.priority as never, status: opts.status as never },
        }),
      );
      ctx.out.value(created, () => `Created ${created.identifier}: ${created.title}`);
    });
  issue
    .command("show")
    .argument("<issue>")
    .action(async (ref: string, _o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const found = await unwrap(ctx.api.GET("/api/issues/{issueId}", { params: { path: { issueId: ref } } }));
      const agentName = await agentNames(ctx, [found.assigneeAgentId]);
      ctx.out.value(found, () =>
        [
          `${found.identifier}  ${found.title}`,
          `status: ${found.status}   priority: ${found.priority}   assignee: ${agentName(found.assigneeAgentId) || "-"}`,
          "",
          found.description ?? "",
        ]
          .join("\n")
          .trimEnd(),
      );
    });
  issue
    .command("comment")
    .argument("<issue>")
    .argument("<body>")
    .action(async (ref: string, body: string, _o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const comment = await unwrap(ctx.api.POST("/api/issues/{issueId}/comments", { params: { path: { issueId: ref } }, body: { body } }));
      ctx.out.value(comment, () => `Commented on ${ref} (${comment.id})`);
    });
  issue
    .command("assign")
    .argument("<issue>")
    .argument("<agentId>")
    .action(async (ref: string, agentId: string, _o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const updated = await unwrap(ctx.api.PATCH("/api/issues/{issueId}", { params: { path: { issueId: ref } }, body: { assigneeAgentId: agentId } }));
      const agentName = await agentNames(ctx, [updated.assigneeAgentId]);
      ctx.out.value(updated, () => `${updated.identifier} assigned to ${agentName(updated.assigneeAgentId)}`);
    });
  issue
    .command("done")
    .argument("<issue>")
    .action(async (ref: string, _o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const updated = await unwrap(ctx.api.PATCH("/api/issues/{issueId}", { params: { path: { issueId: ref } }, body: { status: "done" } }));
      ctx.out.value(updated, () => `${updated.identifier} is done`);
    });
}

export function approvalCommands(program: Command) {
  const approval = program.command("approval").description("Approvals of the selected company");
  approval
    .command("list")
    .option("--status <status>", "pending, approved, rejected, …")
    .action(async (opts: { status?: string }, command: Command) => {
      const ctx = cliContext(command);
      const approvals = await unwrap(
        ctx.api.GET("/api/companies/{companyId}/approvals", { params: { path: { companyId: ctx.companyId() }, query: { status: opts.status as never } } }),
      );
      const agentName = await agentNames(
        ctx,
        approvals.map((a) => a.requestedByAgentId),
      );
      ctx.out.table(approvals, [
        ["Id", "id"],
        ["Type", "type"],
        ["Status", "status"],
        ["Requested by", (a) => agentName(a.requestedByAgentId) || (a.requestedByUserId ? "board" : "")],
        ["Created", (a) => minute(a.createdAt)],
      ]);
    });
  for (const decision of ["approve", "reject"] as const) {
    approval
      .command(decision)
      .argument("<approvalId>")
      .option("--note <text>", "decision note")
      .action(async (approvalId: string, opts: { note?: string }, command: Command) => {
        const ctx = cliContext(command);
        const path = decision === "approve" ? "/api/approvals/{approvalId}/approve" : "/api/approvals/{approvalId}/reject";
        const result = await unwrap(ctx.api.POST(path, { params: { path: { approvalId } }, body: { decisionNote: opts.note } }));
        ctx.out.value(result, () => `${approvalId}: ${result.status}`);
      });
  }
}

export function costCommands(program: Command) {
  program
    .command("cost")
    .description("Costs of the selected company")
    .command("summary")
    .option("--from <iso>")
    .option("--to <iso>")
    .action(async (opts: { from?: string; to?: string }, command: Command) => {
      const ctx = cliContext(command);
      const summary = await unwrap(
        ctx.api.GET("/api/companies/{companyId}/costs/summary", { params: { path: { companyId: ctx.companyId() }, query: { from: opts.from, to: opts.to } } }),
      );
      ctx.out.value(
        summary,
        () => `spent $${(summary.spendCents / 100).toFixed(2)} of $${(summary.budgetCents / 100).toFixed(2)} (${summary.utilizationPercent}%)`,
      );
    });
}

export function routineCommands(program: Command) {
  const routine = program.command("routine").description("Routines of the selected company");
  routine.command("list").action(async (_o: unknown, command: Command) => {
    const ctx = cliContext(command);
    const routines = await unwrap(ctx.api.GET("/api/companies/{companyId}/routines", { params: { path: { companyId: ctx.companyId() } } }));
    const agentName = await agentNames(
      ctx,
      routines.map((r) => r.assigneeAgentId),
    );
    ctx.out.table(routines, [
      ["Id", "id"],
      ["Title", "title"],
      ["Status", "status"],
      ["Assignee", (r) => agentName(r.assigneeAgentId)],
      ["Concurrency", "concurrencyPolicy"],
    ]);
  });
  routine
    .command("run")
    .argument("<routineId>")
    .option("--variables <json>", "template variables as JSON", parseJson("--variables"))
    .action(async (routineId: string, opts: { variables?: Record<string, unknown> }, command: Command) => {
      const ctx = cliContext(command);
      const run = await unwrap(
        ctx.api.POST("/api/routines/{routineId}/run", { params: { path: { routineId } }, body: { variables: opts.variables as never } }),
      );
      ctx.out.value(run);
    });
}

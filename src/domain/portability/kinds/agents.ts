// Agents: agents/<urlKey>.md (id, name, role, title, icon, reportsTo, adapterType, adapterConfig,
// runtimeConfig, budgetMonthlyCents, desiredSkills, metadata; body: capabilities). Terminated
// agents are left out; secret references in the configs become placeholders.
import { and, asc, eq, ne } from "drizzle-orm";
import { z } from "zod";
import { schema } from "../../../db/client";
import { inIds } from "../../../db/id-list";
import { deploymentOf, findAdapter, validateAdapterConfig } from "../../../adapters";
import { HttpError, unprocessable } from "../../errors";
import { deriveUrlKey } from "../../agents/naming";
import { storedDesiredSkills, SKILL_SYNC_KEY, withDesiredSkills } from "../../agents/skills";
import { markdownWith, slugOf, uniqueKey } from "../format";
import { createdIds, defineKind, parentsFirst } from "./kind";
import { id, nullableId, record, text } from "./fields";

/** The longest agent name (an import's renames stay within it). */
export const AGENT_NAME_MAX = 200;

const AgentSchema = z.object({
  id,
  name: z.string().trim().min(1).max(AGENT_NAME_MAX),
  role: z.string().min(1).max(100),
  title: text(200),
  icon: text(100),
  reportsTo: nullableId,
  adapterType: z.string().min(1).max(100),
  adapterConfig: record.nullish().transform((v) => v ?? {}),
  runtimeConfig: record.nullish().transform((v) => v ?? {}),
  budgetMonthlyCents: z
    .number()
    .int()
    .min(0)
    .nullish()
    .transform((v) => v ?? 0),
  // Skill keys come from SKILL.md frontmatter or the source (github/<owner>/<repo>/<slug>): longer than a slug.
  desiredSkills: z
    .array(z.string().max(2000))
    .max(1000)
    .nullish()
    .transform((v) => v ?? []),
  metadata: record.nullish().transform((v) => v ?? null),
});

export type PkgAgent = z.infer<typeof AgentSchema> & { path: string; capabilities: string | null };

export const agents = defineKind<PkgAgent[]>({
  key: "agents",
  noun: "agent",
  references: [{ field: "reportsTo", to: "agents" }],
  parent: "reportsTo",
  exportPart({ db, companyId, batch }) {
    const rows = batch.add(
      db
        .select()
        .from(schema.agents)
        .where(and(eq(schema.agents.companyId, companyId), ne(schema.agents.status, "terminated")))
        .orderBy(asc(schema.agents.createdAt)),
    );
    return {
      ids: () => rows.value.map((a) => a.id),
      write(ctx) {
        ctx.counts.agents = rows.value.length;
        for (const agent of rows.value) {
          const path = ctx.uniquePath("agents", agent.urlKey || slugOf(agent.name), ".md");
          const { [SKILL_SYNC_KEY]: _sync, ...adapterConfig } = agent.adapterConfig ?? {};
          ctx.put(
            path,
            markdownWith(
              {
                id: agent.id,
                name: agent.name,
                role: agent.role,
                title: agent.title,
                icon: agent.icon,
                reportsTo: ctx.held("agents", agent.reportsTo),
                adapterType: agent.adapterType,
                adapterConfig: ctx.scrub(adapterConfig, path),
                runtimeConfig: ctx.scrub(agent.runtimeConfig, path),
                budgetMonthlyCents: agent.budgetMonthlyCents,
                desiredSkills: storedDesiredSkills(agent.adapterConfig),
                metadata: agent.metadata,
              },
              agent.capabilities,
            ),
          );
        }
      },
    };
  },
  parse: (pkg) =>
    pkg.under("agents", ".md").map((path) => {
      const { fields, body } = pkg.markdown(path);
      return { ...pkg.check(AgentSchema, fields, path), path, capabilities: pkg.bounded(body, path) };
    }),
  secretValues: (agent) => [agent.adapterConfig, agent.runtimeConfig],
  apply(ctx, items) {
    const { command, plan } = ctx;
    // URL keys are unique per company: the target's (already read for the plan) and the new ones.
    const urlKeys = new Set(ctx.target.agents.map((a) => a.urlKey));
    for (const agent of parentsFirst(
      items.filter((a) => plan.create.agents.has(a.id)),
      (a) => a.reportsTo,
    )) {
      const name = plan.names.get(agent.id)!;
      // The same adapter rules as a create: an unknown adapter or a broken config is a 422 naming the file.
      let adapterConfig: Record<string, unknown>;
      try {
        adapterConfig = validateAdapterConfig(agent.adapterType, ctx.bind(agent.adapterConfig) ?? {}, { creating: true });
        findAdapter(agent.adapterType)?.checkPolicy?.(adapterConfig, deploymentOf(command.env));
      } catch (err) {
        if (err instanceof HttpError) throw unprocessable(`${agent.path}: ${err.message}`, { path: agent.path, details: err.details });
        throw err;
      }
      ctx.statements.push(
        command.db.insert(schema.agents).values({
          id: plan.ids.agents.get(agent.id)!,
          companyId: command.companyId,
          name,
          urlKey: uniqueKey(deriveUrlKey(name), urlKeys),
          role: agent.role,
          title: agent.title,
          icon: agent.icon,
          capabilities: agent.capabilities,
          reportsTo: ctx.map("agents", agent.reportsTo),
          adapterType: agent.adapterType,
          adapterConfig: withDesiredSkills(adapterConfig, agent.desiredSkills),
          runtimeConfig: ctx.bind(agent.runtimeConfig) ?? {},
          budgetMonthlyCents: agent.budgetMonthlyCents,
          status: "idle",
          permissions: {},
          metadata: agent.metadata,
          ...ctx.at,
        }),
      );
    }
  },
  undo: (ctx, plan) => ctx.db.delete(schema.agents).where(and(eq(schema.agents.companyId, ctx.companyId), inIds(schema.agents.id, createdIds(plan, "agents")))),
});

// Plain-text agent-configuration guides (served under /api/llms/), generated from the adapter
// definitions so they never drift from validation.
import type { AdapterDefinition } from "../../adapters/types";
import { adapterDefinitions } from "../../adapters";
import { AGENT_ICONS } from "./icons";
import { bundledCatalog } from "../skills/catalog";

function fieldLines(definition: AdapterDefinition): string[] {
  return definition.fields.map((f) => {
    const flags = [f.required ? "required" : "optional", f.default !== undefined ? `default ${JSON.stringify(f.default)}` : null].filter(Boolean);
    return `- ${f.name} (${flags.join(", ")}): ${f.description}`;
  });
}

export function adapterGuide(definition: AdapterDefinition): string {
  return [
    `# Adapter: ${definition.type} (${definition.label})`,
    "",
    definition.description,
    "",
    "## adapterConfig fields",
    ...fieldLines(definition),
    "",
    `Skills: ${definition.skillsMode === "persistent" ? "supported (skill files are installed into the runtime)" : "unsupported (desiredSkills are recorded but cannot be delivered)"}.`,
    "",
    "## Example",
    JSON.stringify({ adapterType: definition.type, adapterConfig: definition.example }, null, 2),
    "",
  ].join("\n");
}

export async function agentConfigurationGuide(): Promise<string> {
  const bundled = await bundledCatalog();
  return [
    "# Agent configuration",
    "",
    "Create agents with POST /api/companies/{companyId}/agents (board) or request a hire with POST /api/companies/{companyId}/agent-hires",
    "(board or agents with agents:create / canCreateAgents; approval-aware). Update with PATCH /api/agents/{agentId}",
    "(adapterConfig merges unless replaceAdapterConfig is true).",
    "",
    "## Agent fields",
    "- name (required): a company-unique URL key is derived from it; a duplicate name gets a numeric suffix",
    "- role: ceo, engineer, general, … (the CEO role can create agents)",
    "- title, icon (see /api/llms/agent-icons.txt), capabilities (free text)",
    "- reportsTo: manager agent id in the same company (no cycles)",
    "- adapterType + adapterConfig: how the agent runs (below)",
    "- runtimeConfig: { heartbeat: { enabled (default false), intervalSec } }",
    "- budgetMonthlyCents: > 0 creates a monthly budget policy",
    `- desiredSkills: skill keys or unique slugs; available: ${bundled.map((s) => `${s.entry.key} (${s.entry.slug})`).join(", ")}`,
    "- metadata: free object",
    "",
    'Secrets: adapterConfig.env values may be { "type": "secret_ref", "secretId": "<uuid>", "version": "latest" } referencing a company secret.',
    "Raw values under secret-looking names are stored as new company secrets; responses never echo secret values.",
    "",
    "## Adapter types",
    ...adapterDefinitions.map((d) => `- ${d.type}: ${d.label}. Details: /api/llms/agent-configuration/${d.type}.txt`),
    "",
    ...adapterDefinitions.map(adapterGuide),
  ].join("\n");
}

export function agentIconsGuide(): string {
  return ["# Agent icons", "", "Set `icon` on an agent to one of these names:", "", ...AGENT_ICONS.map((i) => `- ${i.name}: ${i.use}`), ""].join("\n");
}

// The `<runtime>_local` family: a coding-agent CLI (Claude Code, Codex, Gemini, OpenCode, Cursor,
// Pi) run by a runner on a user's machine for each wake, with the service's prompt, in its
// non-interactive mode with structured output (src/cli/runtimes/). Skills are installed into its
// persistent home; a default model is filled on create. The config schema is shared with the
// runner (src/protocol/local-runtimes.ts).
import type { AdapterDefinition, AdapterField } from "./types";
import { envField } from "./env-schema";
import { onRunner } from "./runner";
import { LOCAL_CONFIG_SCHEMAS, LOCAL_FIELD_DOCS, LOCAL_RUNTIME_INFO, LOCAL_RUNTIMES, localFieldNames, type LocalRuntime } from "../protocol/local-runtimes";

function fieldsOf(runtime: LocalRuntime): AdapterField[] {
  const info = LOCAL_RUNTIME_INFO[runtime];
  return localFieldNames(runtime).map((name) => {
    if (name === "env") return envField;
    const doc = LOCAL_FIELD_DOCS[name];
    // Defaults are values a client may send as they are (a second accepted command is named in the description).
    const fallback = name === "model" ? info.defaultModel : name === "command" ? info.commands[0] : doc.default;
    const description = name === "command" && info.commands.length > 1 ? `${doc.description} (\`${info.commands.join("` or `")}\` are found)` : doc.description;
    return { name, required: false, ...(fallback !== undefined ? { default: fallback } : {}), description };
  });
}

function localAdapter(runtime: LocalRuntime): AdapterDefinition {
  const info = LOCAL_RUNTIME_INFO[runtime];
  return {
    type: `${runtime}_local`,
    label: `${info.label} (local)`,
    description: `Runs the ${info.label} CLI (\`${info.commands.join("` or `")}\`) on a runner's machine for each wake, non-interactively with the service's prompt; its transcript, session, usage and cost come back with the run. Skills are installed into its persistent home.`,
    fields: fieldsOf(runtime),
    configSchema: LOCAL_CONFIG_SCHEMAS[runtime],
    ...onRunner,
    skillsMode: "persistent",
    createDefaults: (config) => ({ ...config, model: config.model ?? info.defaultModel }),
    example: { model: info.defaultModel, cwd: "/srv/projects/app" },
  };
}

export const localAdapters = LOCAL_RUNTIMES.map(localAdapter);

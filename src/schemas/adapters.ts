// Adapters as the API describes them: the environment test (the doctor, carried out by a runner).
import { z } from "@hono/zod-openapi";
import { ENV_TEST_STATUSES } from "../protocol/runner";
import { Uuid } from "./common";

export const AdapterTypeParam = z.object({
  companyId: z
    .string()
    .min(1)
    .openapi({ param: { name: "companyId", in: "path" } }),
  adapterType: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "adapterType", in: "path" }, example: "claude_local" }),
});

export const TestEnvironmentSchema = z
  .object({
    agentId: Uuid.optional().openapi({
      description: "Test on the runner serving this agent, with its config (default: any agent of the type a runner serves)",
    }),
    adapterConfig: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "Fields overriding the agent's stored config (e.g. a command or model to try)" }),
    probe: z.boolean().default(true).openapi({ description: "Run the short hello probe: one real, billed model call (default true)" }),
  })
  .strict()
  .openapi("TestEnvironment");

export const EnvironmentCheckSchema = z
  .object({
    code: z.string().openapi({ example: "claude_command_found" }),
    level: z.enum(["info", "warn", "error"]),
    message: z.string(),
    hint: z.string().nullable().optional(),
  })
  .openapi("EnvironmentCheck");

export const EnvironmentTestResultSchema = z
  .object({
    status: z.enum(ENV_TEST_STATUSES).openapi({ description: "`fail` when any check is an error, `warn` when any is a warning" }),
    checks: z.array(EnvironmentCheckSchema),
    runner: z.object({ runnerId: z.string(), name: z.string() }).nullable().openapi({ description: "The runner that checked (null: none could)" }),
  })
  .openapi("EnvironmentTestResult");

export const AdapterFieldSchema = z
  .object({
    name: z.string(),
    type: z
      .enum(["string", "integer", "number", "boolean", "object", "array"])
      .openapi({ description: "JSON type of the value (from the adapter's config schema)" }),
    required: z.boolean(),
    default: z.unknown().optional(),
    secret: z.boolean().openapi({ description: "A credential: a raw value is stored as a company secret, kept as a secret reference" }),
    enum: z.array(z.string()).optional().openapi({ description: "The allowed values" }),
    description: z.string(),
  })
  .openapi("AdapterField");

export const AdapterInfoSchema = z
  .object({
    type: z.string().openapi({ example: "llm_api" }),
    label: z.string(),
    description: z.string(),
    where: z.enum(["object", "gateway", "loop", "runner"]).openapi({
      description:
        "Where its runs execute: object (the service calls your endpoint), gateway (a remote agent server), loop (the service runs the model's tool loop itself), runner (a machine of yours running `acp runner`)",
    }),
    fields: z.array(AdapterFieldSchema),
    example: z.record(z.string(), z.unknown()).openapi({ description: "A working adapterConfig" }),
    tools: z.array(z.string()).optional().openapi({ description: "llm_api: the tools its agents may be given (the `tools` allowlist narrows them)" }),
  })
  .openapi("AdapterInfo");

// The adapters as forms and the CLI read them (GET /api/adapters): each type with where its runs
// execute and its config fields — name, JSON type (from the adapter's own config schema, so it
// cannot drift from what validation accepts), required, default, whether it holds a credential
// (stored as a secret reference), the allowed values, and the field's documentation.
import { z } from "zod";
import { adapterDefinitions } from "./index";
import type { AdapterDefinition, AdapterWhere } from "./types";

export type AdapterFieldType = "string" | "integer" | "number" | "boolean" | "object" | "array";

export interface AdapterFieldInfo {
  name: string;
  type: AdapterFieldType;
  required: boolean;
  default?: unknown;
  secret: boolean;
  enum?: string[];
  description: string;
}

export interface AdapterInfo {
  type: string;
  label: string;
  description: string;
  where: AdapterWhere;
  fields: AdapterFieldInfo[];
  example: Record<string, unknown>;
}

type JsonSchema = { type?: string | string[]; enum?: unknown[]; anyOf?: JsonSchema[]; const?: unknown };

/** A property's JSON type and allowed values; a union takes its first typed member (a credential: string or reference). */
function typeOf(schema: JsonSchema | undefined): { type: AdapterFieldType; enum?: string[] } {
  if (!schema) return { type: "object" };
  if (schema.enum) return { type: "string", enum: schema.enum.map(String) };
  if (schema.anyOf?.length) return typeOf(schema.anyOf.find((s) => s.type !== "null") ?? schema.anyOf[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  return { type: (["string", "integer", "number", "boolean", "object", "array"].includes(String(type)) ? type : "object") as AdapterFieldType };
}

function propertiesOf(definition: AdapterDefinition): Record<string, JsonSchema> {
  const json = z.toJSONSchema(definition.configSchema as unknown as z.ZodType, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, JsonSchema>;
  };
  return json.properties ?? {};
}

export function adapterInfo(definition: AdapterDefinition): AdapterInfo {
  const properties = propertiesOf(definition);
  const secret = new Set(definition.secretFields ?? []);
  return {
    type: definition.type,
    label: definition.label,
    description: definition.description,
    where: definition.where,
    fields: definition.fields.map((f) => ({
      name: f.name,
      ...typeOf(properties[f.name]),
      required: f.required,
      ...(f.default !== undefined ? { default: f.default } : {}),
      secret: secret.has(f.name),
      description: f.description,
    })),
    example: definition.example,
  };
}

/** Every adapter, in the registry's order. */
export const adapterCatalogue = (): AdapterInfo[] => adapterDefinitions.map(adapterInfo);

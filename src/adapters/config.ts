// An adapter's config schema is also its reader. A stored adapterConfig was validated by the
// schema when it was written (create, update, import, hire); reading it goes through the same
// schema field by field, and a field that is missing, or that the schema would not accept (a row
// written by hand), reads as the adapter's default.
import type { z } from "zod";

/** The fields of `stored` that `schema` accepts, as it parses them (trimmed, …); the others left out. */
export function acceptedFields<Shape extends Record<string, z.ZodType>>(
  schema: { shape: Shape },
  stored: Record<string, unknown>,
): Partial<z.output<z.ZodObject<Shape>>> {
  const accepted: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.shape)) {
    const parsed = field.safeParse(stored[name]);
    if (parsed.success && parsed.data !== undefined) accepted[name] = parsed.data;
  }
  return accepted as Partial<z.output<z.ZodObject<Shape>>>;
}

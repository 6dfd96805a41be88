// Field schemas the kinds' files share. Every limit is at least the limit of the route that writes
// the same field (or, where no route bounds it, large enough for what the service stores): whatever
// an export writes, an import reads. Collections only the package's own size bounds get generous counts.
import { z } from "zod";

export const id = z.string().min(1).max(200);
export const nullableId = id.nullish().transform((v) => v ?? null);
export const text = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((v) => v ?? null);
export const record = z.record(z.string(), z.unknown());
/** Lists whose length no route bounds (labels of a company, comments of an issue, …). */
export const MANY = 100_000;
/** The longest markdown body of an entity (a description, an agent's capabilities). */
export const MAX_TEXT = 100_000;

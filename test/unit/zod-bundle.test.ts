// The Worker bundle's "zod" (src/bundle/zod.js, wrangler.toml [alias]) is zod less its non-English
// messages: the same exports, the same classes (so @hono/zod-openapi extends the prototypes the app
// builds on), English errors.
import { describe, expect, it } from "vitest";
import * as real from "zod";
import * as bundled from "../../src/bundle/zod.js";

const keys = (o: object) => Object.keys(o).sort();

describe("the bundle's zod", () => {
  it("exports what zod exports, with the same classes and functions", () => {
    expect(keys(bundled)).toEqual(keys(real));
    expect(keys(bundled.z)).toEqual(keys(real));
    expect(keys(bundled.core)).toEqual(keys(real.core));
    const mine = new Map(Object.entries(bundled));
    for (const [name, value] of Object.entries(real)) if (!["z", "default", "core", "locales"].includes(name)) expect(mine.get(name), name).toBe(value);
    expect(bundled.z.ZodType).toBe(real.ZodType);
    expect(bundled.default.object).toBe(real.object);
  });

  it("carries English messages only, and they are zod's", () => {
    expect(keys(bundled.locales)).toEqual(["en"]);
    expect(keys(bundled.core.locales)).toEqual(["en"]);
    expect(bundled.locales.en).toBe(real.locales.en);
    const result = bundled.z.object({ title: bundled.z.string() }).safeParse({ title: 5 });
    expect(result.error?.issues[0].message).toBe("Invalid input: expected string, received number");
  });
});

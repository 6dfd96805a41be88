// The Worker bundle's "@better-auth/core/social-providers" (src/bundle/no-social-providers.js,
// wrangler.toml [alias]): the names better-auth imports, the same provider schema, no providers.
import { describe, expect, it } from "vitest";
import * as real from "@better-auth/core/social-providers";
import * as bundled from "../../src/bundle/no-social-providers.js";

describe("the bundle's social providers", () => {
  it("validates a provider name as better-auth does (any string)", () => {
    for (const value of ["github", "no-such-provider", "", 5, null])
      expect(bundled.SocialProviderListEnum.safeParse(value).success, String(value)).toBe(real.SocialProviderListEnum.safeParse(value).success);
  });

  it("has no providers, and configuring one fails with a clear error", () => {
    expect(bundled.socialProviderList).toEqual([]);
    expect(Object.keys(bundled.socialProviders)).toEqual([]);
    expect(() => (bundled.socialProviders as Record<string, unknown>).github).toThrow(/not in this Worker's bundle/);
  });
});

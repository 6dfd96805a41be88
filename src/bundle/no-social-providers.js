// The Worker bundle's "@better-auth/core/social-providers" (wrangler.toml [alias]): no OAuth
// providers. Board sign-in is email and password only (src/auth/better-auth.ts configures no
// socialProviders), yet better-auth imports its registry of ~35 providers (~60 KB minified, with
// their zod schemas and JWKS code) for its routes and context. These are the three names it
// imports; configuring a provider fails loudly here instead of silently doing nothing.
import { z } from "zod";

export const socialProviders = new Proxy(
  {},
  {
    get(_, key) {
      if (typeof key === "symbol") return undefined;
      throw new Error(`OAuth provider "${key}" is not in this Worker's bundle (wrangler.toml [alias], src/bundle/no-social-providers.js)`);
    },
  },
);
export const socialProviderList = [];
/** better-auth's own schema is z.enum(providers).or(z.string()): any string. */
export const SocialProviderListEnum = z.string();

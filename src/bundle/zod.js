// The Worker bundle's "zod" (wrangler.toml [alias]): zod itself, with only the English error
// messages. @hono/zod-openapi imports zod's whole namespace object (`import { z }`, passed to
// extendZodWithOpenApi), and esbuild then keeps every export of it, including `locales`: all 40-odd
// languages' messages (~270 KB minified) that nothing here uses. Re-exporting everything and
// shadowing `locales` and `core` (whose own `locales` is the same list) drops them; the rest is
// zod's own modules. JavaScript because TypeScript cannot type a module importing its own
// namespace; its types are zod's (zod.d.ts). test/unit/zod-bundle.test.ts checks it exports what
// zod exports.
import en from "zod/v4/locales/en.js";
import * as self from "./zod.js";

export * from "zod/v4";
export * as core from "./zod-core.js";
export const locales = { en };
export { self as z, self as default };

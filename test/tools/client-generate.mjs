#!/usr/bin/env node
// `npm run client:generate`: fetches /api/openapi.json from a real dev server and writes the typed
// client's inputs into the repository: src/client/generated/openapi.json (the document, without `servers`)
// and src/client/generated/schema.d.ts (types only, openapi-typescript with defaultNonNullable false).
// test/http/client-staleness.test.ts fails when the live document differs from the committed one.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startDevServer } from "./server.mjs";
import { generateTypes, normalizeDocument } from "./client-types.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const server = await startDevServer();
try {
  const document = normalizeDocument(await (await fetch(`${server.base}/api/openapi.json`)).json());
  writeFileSync(path.join(root, "src/client/generated/openapi.json"), JSON.stringify(document, null, 2) + "\n");
  writeFileSync(path.join(root, "src/client/generated/schema.d.ts"), await generateTypes(document));
  console.log(`wrote src/client/generated/openapi.json (${Object.keys(document.paths).length} paths) and src/client/generated/schema.d.ts`);
} finally {
  server.stop();
}

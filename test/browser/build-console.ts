// The console the dev servers serve is the one in the working tree: built once before the files run
// (wrangler dev builds it too, through [build]; building here first makes a failing build fail fast).
// @ts-expect-error plain JavaScript build module
import { buildConsole } from "../../src/console/build.mjs";

export default async function setup() {
  const { gzipBytes } = await buildConsole();
  console.log(`console built: first page ${(gzipBytes / 1024).toFixed(1)} KiB gzipped by the build's count`);
}

// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's Locator.innerText(), not the DOM property
// What the browser tests share: a real dev server (`npm run dev` with its own state directory,
// optionally in authenticated mode), Debian's Chromium driven by playwright-core (never a
// downloaded browser), and the checks every page gets — ready within its budget, axe-core with no
// serious or critical violation, no horizontal scrolling at 390 px, a screenshot in artifacts/.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
// @ts-expect-error plain JavaScript tool module
import { freePort, startDevServer } from "../tools/server.mjs";

const root = path.resolve(import.meta.dirname, "../..");
export const ARTIFACTS = path.join(root, "test/browser/artifacts");
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const AXE = readFileSync(path.join(root, "node_modules/axe-core/axe.min.js"), "utf8");

export interface DevServer {
  base: string;
  stop: () => void;
  /** The dev server's local state (its D1 databases under v3/d1/), for a test that must seed what no route makes. */
  persistDir: string;
}

/** `npm run dev` on a free port with its own state; `authenticated` serves DEPLOYMENT_MODE=authenticated. */
export async function devServer({ authenticated = false } = {}): Promise<DevServer> {
  if (!authenticated) return startDevServer();
  // test/tools/server.mjs starts the default (local_trusted) configuration; this one passes the mode
  // to wrangler dev as a variable, the same way.
  const port = await freePort();
  const persistDir = mkdtempSync(path.join(tmpdir(), "acp-browser-"));
  const child = spawn(process.execPath, [path.join(root, "test/tools/dev.mjs"), "--var", "DEPLOYMENT_MODE:authenticated"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      WRANGLER_PERSIST_DIR: persistDir,
      CI: "true",
      WRANGLER_SEND_METRICS: "false",
      WATCH_PARENT_PID: String(process.pid),
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  const stop = () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      /* gone */
    }
    rmSync(persistDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`dev server exited early (${child.exitCode}):\n${output}`);
    try {
      const health = await fetch(`${base}/api/health`);
      if (health.ok && (await health.json()).deploymentMode === "authenticated") break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      stop();
      throw new Error(`dev server did not become healthy in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { base, stop, persistDir };
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH}: install Debian's (apt-get install chromium) or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM_PATH });
}

/** JSON over HTTP as the CLI or an agent would call the API (the implicit local board, or a token). */
export function apiClient(base: string, token?: string) {
  const request = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const json = text ? JSON.parse(text) : null;
    if (!res.ok) throw new Error(`${method} ${route} → ${res.status}: ${text}`);
    return json;
  };
  return {
    get: (route: string) => request("GET", route),
    post: (route: string, body: unknown = {}) => request("POST", route, body),
    patch: (route: string, body: unknown) => request("PATCH", route, body),
    put: (route: string, body: unknown) => request("PUT", route, body),
  };
}

/** A wake-up the fake agent received: what it needs to act as the run. */
export interface Wake {
  runId: string;
  apiUrl: string;
  apiToken: string;
  context: { issueId?: string | null; wakeReason?: string | null };
}

/** An agent endpoint for the http adapter that accepts every wake-up (202) and completes its run when told. */
export async function fakeAgent() {
  const wakes: Wake[] = [];
  const open: Wake[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const wake = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Wake;
    wakes.push(wake);
    open.push(wake);
    res.writeHead(202).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  /** Headers of a request made as the run (its token). */
  const asRun = (wake: Wake) => ({ "content-type": "application/json", authorization: `Bearer ${wake.apiToken}` });
  const complete = async (wake: Wake) => {
    open.splice(open.indexOf(wake), 1);
    await fetch(`${wake.apiUrl}/api/heartbeat-runs/${wake.runId}/complete`, {
      method: "POST",
      headers: asRun(wake),
      body: JSON.stringify({ status: "succeeded", summary: "fake agent done" }),
    });
  };
  return {
    url: `http://127.0.0.1:${port}/wake`,
    /** Every wake-up received. */
    wakes,
    /** Wake-ups received and not completed yet. */
    woken: () => open.length,
    asRun,
    complete,
    /** Completes every run the agent was handed so far. */
    async completeAll() {
      for (const wake of [...open]) await complete(wake);
    },
    close: () => server.close(),
  };
}

/** Hires an http agent (an engineer) pointed at `url` in the company, through the API. */
export function hireHttpAgent(api: ReturnType<typeof apiClient>, companyId: string, url: string, name: string, extra: object = {}) {
  return api.post(`/api/companies/${companyId}/agents`, {
    name,
    role: "engineer",
    title: `${name} the engineer`,
    adapterType: "http",
    adapterConfig: { url },
    ...extra,
  });
}

/** Waits until the page shows its content: a heading in <main> and nothing still loading. Returns ms since navigation start. */
export async function ready(page: Page, heading?: string | RegExp): Promise<number> {
  try {
    await page.waitForFunction(() => document.querySelector("main h1") !== null && document.querySelector(".state") === null, undefined, { timeout: 15_000 });
  } catch (err) {
    const shown = await page.evaluate(() => document.body.innerText.slice(0, 600)).catch(() => "(unreadable)");
    const started = Date.now();
    const probe = await fetch(new URL("/api/companies", page.url()))
      .then((r) => `${r.status} in ${Date.now() - started} ms`)
      .catch((e) => String(e));
    throw new Error(`${page.url()} was not ready within 15 s (GET /api/companies from here now: ${probe}); it shows:\n${shown}`, { cause: err });
  }
  const at = await page.evaluate(() => performance.now());
  if (heading) await expect.poll(() => page.locator("main h1").first().innerText()).toMatch(heading);
  return at;
}

/**
 * Opens `url` in a fresh load and checks the page: ready (returns when, in ms), axe-core, screenshot. The axe
 * script is evaluated through the DevTools protocol, so the page keeps its Content-Security-Policy.
 */
export async function visit(page: Page, base: string, url: string, name: string, heading?: string | RegExp) {
  await page.goto(`${base}${url}`);
  const readyMs = await ready(page, heading);
  await checkPage(page, name);
  return readyMs;
}

/** axe-core (no serious or critical violation) and a full-page screenshot of what the page shows now. */
export async function checkPage(page: Page, name: string) {
  await axe(page, name);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

export async function axe(page: Page, name: string) {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v: { id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5),
    }));
  });
  const serious = violations.filter((v: { impact: string }) => v.impact === "serious" || v.impact === "critical");
  expect(serious, `axe on ${name}`).toEqual([]);
}

/** The page does not scroll sideways (at the viewport it has). */
export async function noHorizontalScroll(page: Page, name: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
}

/**
 * Each page, by name and URL, loaded three times afresh: the median time from navigation until it is
 * ready is logged (the README's figures) and must stay under the budget.
 */
export async function expectReadyWithin(page: Page, base: string, pages: Array<[string, string]>, budgetMs = 1000) {
  const medians: Array<{ name: string; ms: number }> = [];
  for (const [name, url] of pages) {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.goto(`${base}${url}`);
      times.push(await ready(page));
    }
    medians.push({ name, ms: Math.round(times.sort((a, b) => a - b)[1]) });
  }
  console.log(`ready after navigation (median of 3, ms): ${medians.map((m) => `${m.name} ${m.ms}`).join(", ")}`);
  expect(medians.filter((m) => m.ms >= budgetMs)).toEqual([]);
}

/** The gzipped bytes of the console's own files (HTML, JS, CSS) this page loaded, fetched again here. */
export async function loadedWeight(page: Page, base: string) {
  const urls: string[] = await page.evaluate(() => [location.href, ...performance.getEntriesByType("resource").map((e) => e.name)]);
  const origin = new URL(base).origin;
  const own = [...new Set(urls)].filter((u) => new URL(u).origin === origin && !new URL(u).pathname.startsWith("/api/"));
  let gzipBytes = 0;
  const files: string[] = [];
  for (const url of own) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    gzipBytes += gzipSync(body, { level: 9 }).length;
    files.push(new URL(url).pathname);
  }
  return { gzipBytes, files };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// What a test makes for itself, so that it passes alone and in any order: a browser context (nothing
// remembered from another test), a company, an agent endpoint. Closed after the test.
const opened: Array<{ close: () => unknown }> = [];

/** Closed after the running test. */
export function ours<T extends { close: () => unknown }>(thing: T): T {
  opened.push(thing);
  return thing;
}

export type PageOptions = Parameters<Browser["newContext"]>[0];

export interface Suite {
  server: DevServer;
  browser: Browser;
  api: ReturnType<typeof apiClient>;
}

let made = 0;

/**
 * A test file's dev server, Chromium and API client: started once before its tests (`started`
 * receives them) and stopped after them. What each test opens for itself (`newPage`, `newCompany`,
 * `ours`) is closed after that test.
 */
export function browserSuite(started: (suite: Suite) => void, { authenticated = false } = {}) {
  let suite: Suite | undefined;
  beforeAll(async () => {
    const [server, browser] = await Promise.all([devServer({ authenticated }), launchChromium()]);
    suite = { server, browser, api: apiClient(server.base) };
    started(suite);
  }, 180_000);
  afterEach(async () => {
    for (const each of opened.splice(0).reverse()) await each.close();
  });
  afterAll(async () => {
    await suite?.browser.close();
    suite?.server.stop();
  });
  return {
    /** A page in a browser context of the test's own (1280×900 unless told), page errors logged. */
    async newPage(options: PageOptions = {}): Promise<Page> {
      const context = ours(await suite!.browser.newContext({ viewport: { width: 1280, height: 900 }, ...options }));
      const page = await context.newPage();
      page.on("pageerror", (err) => console.error(`page error: ${err.message}`));
      return page;
    },
    /** A company of the test's own (its name made unique: `name` and a number) and its pages' prefix. */
    async newCompany(name: string, extra: object = {}) {
      const company = await suite!.api.post("/api/companies", { name: `${name} ${++made}`, ...extra });
      return { company, prefix: `/${company.issuePrefix}` as string };
    },
  };
}

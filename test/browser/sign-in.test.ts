// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's Locator.innerText(), not the DOM property
// The console in authenticated mode: sign up, create the first company, sign out, come back through
// a deep link (sign in first, then the page asked for), the API's error for a wrong password, and a
// CLI login approved and another cancelled on the page `acp login` names, after signing in. Each
// test signs up a person of its own in a browser context of its own, so the tests pass alone and in
// any order.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite, checkPage, type DevServer, noHorizontalScroll, ready, visit } from "./harness";

let server: DevServer;
/** A page in a browser context of the test's own: no one is signed in. */
const { newPage } = browserSuite((suite) => ({ server } = suite), { authenticated: true });
const password = "correct horse battery";
let people = 0;
/** An email no account has yet. */
const newEmail = () => `board-${Date.now()}-${++people}@example.com`;

const challenge = () =>
  fetch(`${server.base}/api/cli-auth/challenges`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ clientName: "ci laptop" }),
  }).then((r) => r.json());

/** Creates an account on the sign-in page (“Create an account”): the page ends signed in, at the company picker. */
async function signUp(page: Page, name = "Grace Board") {
  const email = newEmail();
  await page.goto(`${server.base}/sign-in?mode=sign-up`);
  await ready(page, "Create an account");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await ready(page, "Companies");
  return email;
}

/** Creates a company on the picker's form: the page ends on its dashboard; returns its prefix. */
async function createCompany(page: Page, name: string, budget = "250") {
  await page.getByLabel("Company name").fill(name);
  await page.getByLabel("Monthly budget (USD)").fill(budget);
  await page.getByRole("button", { name: "Create company" }).click();
  await page.waitForURL(/\/[A-Z0-9]+\/dashboard$/);
  await ready(page, "Dashboard");
  return new URL(page.url()).pathname.split("/")[1];
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/sign-in");
}

describe("board console (authenticated)", () => {
  it("asks a visitor to sign in; creates an account and the first company", async () => {
    const page = await newPage();
    await visit(page, server.base, "/", "sign-in", "Sign in");
    expect(page.url()).toContain("/sign-in?next=%2F");
    await page.setViewportSize({ width: 390, height: 844 });
    await noHorizontalScroll(page, "sign-in");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: "Create an account" }).click();
    await page.getByLabel("Name").fill("Grace Board");
    await page.getByLabel("Email").fill(newEmail());
    await page.getByLabel("Password").fill(password);
    await checkPage(page, "sign-up");
    await page.getByRole("button", { name: "Create account" }).click();
    await ready(page, "Companies");
    expect(await page.locator(".empty").innerText()).toContain("no companies yet");
    await createCompany(page, "Night Shift");
    expect(await page.locator("header").innerText()).toContain("Grace Board");
    await expect.poll(() => page.getByRole("region", { name: "Spend this month" }).innerText()).toContain("$250.00");
  });

  it("signs out, and a deep link signs in first and then opens the page asked for; a wrong password shows the API's error", async () => {
    const page = await newPage();
    const email = await signUp(page);
    const prefix = await createCompany(page, "Day Shift");
    await signOut(page);
    await page.goto(`${server.base}/${prefix}/issues?view=board`);
    await page.waitForURL(/\/sign-in\?next=/);
    await ready(page, "Sign in");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").innerText()).toMatch(/invalid|password/i);
    await checkPage(page, "sign-in-error");
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`**/${prefix}/issues?view=board`);
    await ready(page, "Issues");
  });

  it("approves one CLI login and cancels another on the page acp login prints, after signing in", async () => {
    const page = await newPage();
    const email = await signUp(page);
    await signOut(page);
    const first = await challenge();
    await page.goto(first.approvalUrl);
    await page.waitForURL(/\/sign-in\?next=%2Fcli-auth%2F/);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`**/cli-auth/${first.id}`);
    await ready(page, "Approve CLI sign-in");
    expect(await page.locator(".user-code").innerText()).toBe(first.userCode);
    await page.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => page.locator(".status-line").innerText()).toContain("Approved");
    const polled = await fetch(`${server.base}/api/cli-auth/challenges/${first.id}`, { headers: { "x-challenge-secret": first.pollSecret } }).then((r) =>
      r.json(),
    );
    expect(polled.boardApiKey.token).toMatch(/^svc_board_/);

    const second = await challenge();
    await visit(page, server.base, new URL(second.approvalUrl).pathname, "cli-auth-signed-in", "Approve CLI sign-in");
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => page.locator(".status-line").innerText()).toContain("Cancelled");
    const cancelled = await fetch(`${server.base}/api/cli-auth/challenges/${second.id}`, { headers: { "x-challenge-secret": second.pollSecret } }).then((r) =>
      r.json(),
    );
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.boardApiKey).toBeUndefined();
  });
});

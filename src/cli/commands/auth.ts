// login (the device flow), logout, whoami.
import type { Command } from "commander";
import { hostname } from "node:os";
import { createClient } from "../../client";
import { clearToken, configPath, loadConfig, saveConfig } from "../config";
import { cliContext, unwrap } from "../context";
import { companyNames } from "../names";
import { CliError, printer } from "../output";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The console page where a board user approves the challenge, when the service names one
 * (`approvalUrl`, absolute or relative to the service), else null.
 */
export function consoleApprovalUrl(serviceUrl: string, challenge: object): string | null {
  const approvalUrl = (challenge as { approvalUrl?: unknown }).approvalUrl;
  if (typeof approvalUrl !== "string" || !approvalUrl) return null;
  try {
    return new URL(approvalUrl, `${serviceUrl}/`).href;
  } catch {
    return null;
  }
}

const authSources: Record<string, string> = {
  local_implicit: "local mode (no sign-in needed)",
  session: "browser session",
  board_key: "board key",
};

/** whoami's lines: who, which companies (by name), and how the caller is authenticated. */
export function describeCaller(
  me: { user: { id: string; name?: unknown; email?: unknown }; companyIds: string[]; isInstanceAdmin: boolean; authSource: string; keyId: string | null },
  companyName: (id: string) => string,
): string {
  return [
    `${userLabel(me)}${me.isInstanceAdmin ? " (instance admin)" : ""}`,
    `companies: ${me.companyIds.map(companyName).join(", ") || "(none)"}`,
    `auth: ${authSources[me.authSource] ?? me.authSource}${me.keyId ? ` ${me.keyId}` : ""}`,
  ].join("\n");
}

/** "Name <email>", or the user id where the name is missing or blank. */
export function userLabel(me: { user: { id: string; name?: unknown; email?: unknown } }): string {
  const name = typeof me.user.name === "string" && me.user.name.trim() ? me.user.name.trim() : me.user.id;
  return typeof me.user.email === "string" && me.user.email ? `${name} <${me.user.email}>` : name;
}

export function authCommands(program: Command) {
  program
    .command("login")
    .description("Sign in with the device flow: approve the shown code as a board user; the board key is saved (0600) in your config directory")
    .option("--name <name>", "name of the board key to mint", `acp on ${hostname()}`)
    .action(async (opts: { name: string }, command: Command) => {
      const globals = command.optsWithGlobals<{ url?: string; json?: boolean }>();
      const url = (globals.url || loadConfig().url || "").replace(/\/+$/, "");
      if (!url) throw new CliError("Pass --url <api> (or set ACP_URL)");
      const out = printer(Boolean(globals.json));
      const api = createClient({ baseUrl: url });
      const challenge = await unwrap(api.POST("/api/cli-auth/challenges", { body: { clientName: "acp", keyName: opts.name } }));
      const approvalUrl = consoleApprovalUrl(url, challenge);
      if (approvalUrl) out.note(`Open ${approvalUrl} to approve code ${challenge.userCode} (expires ${challenge.expiresAt}).`);
      else out.note(`To sign in, a board user approves code ${challenge.userCode} (expires ${challenge.expiresAt}).`);
      out.note(`  ${approvalUrl ? "Or from" : "From"} a machine where a board user is signed in:  acp approve-login ${challenge.id} ${challenge.userCode}`);
      if (!approvalUrl)
        out.note(
          `  Or with curl and a board key:\n    curl -X POST ${url}${challenge.verificationPath} -H 'authorization: Bearer <board key>' -H 'content-type: application/json' -d '{"userCode":"${challenge.userCode}"}'`,
        );
      out.note("Waiting for approval…");
      const deadline = Date.parse(challenge.expiresAt);
      for (;;) {
        await sleep(Math.max(1, challenge.intervalSec) * 1000);
        const polled = await unwrap(
          api.GET("/api/cli-auth/challenges/{id}", { params: { path: { id: challenge.id }, header: { "x-challenge-secret": challenge.pollSecret } } }),
        );
        if (polled.boardApiKey) {
          saveConfig({ ...loadConfig(), url, token: polled.boardApiKey.token, keyId: polled.boardApiKey.id });
          const me = await unwrap(createClient({ baseUrl: url, token: polled.boardApiKey.token }).GET("/api/cli-auth/me"));
          out.value(
            { signedIn: true, user: me.user, keyId: polled.boardApiKey.id, expiresAt: polled.boardApiKey.expiresAt, config: configPath() },
            () => `Signed in as ${userLabel(me)}; key saved in ${configPath()}`,
          );
          return;
        }
        if (polled.status !== "pending" && polled.status !== "approved") throw new CliError(`Sign-in ${polled.status}`);
        if (Date.now() > deadline) throw new CliError("Sign-in expired; run acp login again");
      }
    });

  program
    .command("approve-login")
    .description("Approve another machine's `acp login` (as the board user signed in here)")
    .argument("<challengeId>", "the id printed by acp login")
    .argument("<userCode>", "the code printed by acp login")
    .action(async (challengeId: string, userCode: string, _opts: unknown, command: Command) => {
      const ctx = cliContext(command);
      const approved = await unwrap(ctx.api.POST("/api/cli-auth/challenges/{id}/approve", { params: { path: { id: challengeId } }, body: { userCode } }));
      ctx.out.value(approved, () => `Approved sign-in of ${approved.clientName}`);
    });

  program
    .command("logout")
    .description("Revoke the saved board key and forget it")
    .action(async (_opts: unknown, command: Command) => {
      const ctx = cliContext(command);
      if (!ctx.token) throw new CliError("Not signed in");
      const revoked = await unwrap(ctx.api.POST("/api/cli-auth/revoke-current"));
      clearToken();
      ctx.out.value(revoked, () => `Signed out; key ${revoked.keyId} revoked`);
    });

  program
    .command("whoami")
    .description("The signed-in board user, the companies they reach, and the key in use")
    .action(async (_opts: unknown, command: Command) => {
      const ctx = cliContext(command);
      const me = await unwrap(ctx.api.GET("/api/cli-auth/me"));
      if (ctx.out.json) return ctx.out.value(me);
      const names = await companyNames(ctx, me.companyIds);
      ctx.out.value(me, () => describeCaller(me, names));
    });
}

// login (the device flow), logout, whoami.
import { Command } from "commander";
import { hostname } from "node:os";
import { createClient } from "../../client";
import { clearToken, configPath, loadConfig, saveConfig } from "../config";
import { cliContext, unwrap } from "../context";
import { CliError, printer } from "../output";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
      out.note(`To sign in, a board user approves code ${challenge.userCode} (expires ${challenge.expiresAt}).`);
      out.note(`  From a machine where a board user is signed in:  acp approve-login ${challenge.id} ${challenge.userCode}`);
      out.note(`  Or with curl and a board key:\n    curl -X POST ${url}${challenge.verificationPath} -H 'authorization: Bearer <board key>' -H 'content-type: application/json' -d '{"userCode":"${challenge.userCode}"}'`);
      out.note("Waiting for approval…");
      const deadline = Date.parse(challenge.expiresAt);
      for (;;) {
        await sleep(Math.max(1, challenge.intervalSec) * 1000);
        const polled = await unwrap(api.GET("/api/cli-auth/challenges/{id}", { params: { path: { id: challenge.id }, header: { "x-challenge-secret": challenge.pollSecret } } }));
        if (polled.boardApiKey) {
          saveConfig({ ...loadConfig(), url, token: polled.boardApiKey.token, keyId: polled.boardApiKey.id });
          const me = await unwrap(createClient({ baseUrl: url, token: polled.boardApiKey.token }).GET("/api/cli-auth/me"));
          out.value({ signedIn: true, user: me.user, keyId: polled.boardApiKey.id, expiresAt: polled.boardApiKey.expiresAt, config: configPath() }, () => `Signed in as ${me.user.name} <${me.user.email}>; key saved in ${configPath()}`);
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
      ctx.out.value(me, () => `${me.user.name} <${me.user.email}>${me.isInstanceAdmin ? " (instance admin)" : ""}\ncompanies: ${me.companyIds.join(", ") || "(none)"}\nauth: ${me.authSource}${me.keyId ? ` (key ${me.keyId})` : ""}`);
    });
}

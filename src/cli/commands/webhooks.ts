// `acp webhooks`: the selected company's webhook subscriptions (board only): create (the signing
// secret is shown once), list, update, delete, rotate the secret, send a test ping, and the
// deliveries of one (and redeliver one).
import type { Command } from "commander";
import type { components } from "../../client";
import { cliContext, unwrap, type CliContext } from "../context";
import { CliError, minute } from "../output";

type Webhook = components["schemas"]["Webhook"];
type WebhookWithSecret = components["schemas"]["WebhookWithSecret"];

const eventList = (value: string) => {
  const events = value
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  if (!events.length) throw new CliError("--events needs at least one event type (e.g. issue.*,approval.resolved)");
  return events;
};
const positive = (value: string) => {
  const n = Number.parseInt(value, 10);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`Not a positive number: ${value}`);
  return n;
};

const path = (ctx: CliContext, webhookId: string) => ({ path: { companyId: ctx.companyId(), webhookId } });

/** The secret, set apart so it is not missed, and said to be shown only this once. */
const withSecret = (headline: string, hook: WebhookWithSecret) =>
  [
    headline,
    "",
    `  Signing secret (shown only now; store it where your receiver reads it):`,
    `  ${hook.secret}`,
    "",
    'Deliveries carry X-Service-Signature: sha256=<hex HMAC-SHA256 of "<X-Service-Timestamp>." + body, keyed with this secret>.',
  ].join("\n");

const state = (hook: Webhook) => (hook.enabled ? "enabled" : hook.disabledReason ? `disabled: ${hook.disabledReason}` : "disabled");

const details = (hook: Webhook) =>
  [
    `${hook.id}  ${hook.url}`,
    `events: ${hook.events.join(", ")}`,
    `state: ${state(hook)}`,
    hook.description ? `description: ${hook.description}` : "",
    hook.failingSince ? `failing since: ${minute(hook.failingSince)}` : "",
  ]
    .filter(Boolean)
    .join("\n");

export function webhookCommands(program: Command) {
  const webhooks = program.command("webhooks").description("Webhook subscriptions of the selected company (signed event deliveries)");
  webhooks
    .command("create")
    .description("Subscribe a URL to events; prints the signing secret once")
    // Not --url: that is the service's URL (a global option, recognised after the subcommand too).
    .requiredOption("--endpoint <url>", "where to POST events: https, or a loopback http URL on a local service (--url is the service's own URL)")
    .requiredOption("--events <patterns>", "event types, comma-separated: exact or prefix.* (e.g. issue.*,approval.resolved)", eventList)
    .option("--description <text>")
    .option("--disabled", "create it disabled")
    .action(async (opts: { endpoint: string; events: string[]; description?: string; disabled?: boolean }, command: Command) => {
      const ctx = cliContext(command);
      const created = await unwrap(
        ctx.api.POST("/api/companies/{companyId}/webhooks", {
          params: { path: { companyId: ctx.companyId() } },
          body: { url: opts.endpoint, events: opts.events, description: opts.description, ...(opts.disabled ? { enabled: false } : {}) },
        }),
      );
      ctx.out.value(created, () => withSecret(`Created webhook ${created.id} → ${created.url} (${created.events.join(", ")})`, created));
    });
  webhooks.command("list").action(async (_o: unknown, command: Command) => {
    const ctx = cliContext(command);
    const hooks = await unwrap(ctx.api.GET("/api/companies/{companyId}/webhooks", { params: { path: { companyId: ctx.companyId() } } }));
    ctx.out.table(hooks, [
      ["Id", "id"],
      ["URL", "url"],
      ["Events", (h) => h.events.join(",")],
      ["State", state],
      ["Description", "description"],
      ["Created", (h) => minute(h.createdAt)],
    ]);
  });
  webhooks
    .command("show")
    .argument("<webhookId>")
    .action(async (webhookId: string, _o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const hook = await unwrap(ctx.api.GET("/api/companies/{companyId}/webhooks/{webhookId}", { params: path(ctx, webhookId) }));
      ctx.out.value(hook, () => details(hook));
    });
  webhooks
    .command("update")
    .description("Change a subscription (enabling it again clears a failure disable)")
    .argument("<webhookId>")
    .option("--endpoint <url>", "a new URL to POST events to")
    .option("--events <patterns>", "replaces the event types", eventList)
    .option("--description <text>")
    .option("--enable")
    .option("--disable")
    .action(
      async (
        webhookId: string,
        opts: { endpoint?: string; events?: string[]; description?: string; enable?: boolean; disable?: boolean },
        command: Command,
      ) => {
        const ctx = cliContext(command);
        if (opts.enable && opts.disable) throw new CliError("--enable or --disable, not both");
        const body = { url: opts.endpoint, events: opts.events, description: opts.description, enabled: opts.enable ? true : opts.disable ? false : undefined };
        if (Object.values(body).every((v) => v === undefined))
          throw new CliError("Nothing to change: pass --endpoint, --events, --description, --enable or --disable");
        const hook = await unwrap(ctx.api.PATCH("/api/companies/{companyId}/webhooks/{webhookId}", { params: path(ctx, webhookId), body }));
        ctx.out.value(hook, () => `Updated webhook\n${details(hook)}`);
      },
    );
  webhooks
    .command("delete")
    .description("Delete a subscription (its pending deliveries are dropped)")
    .argument("<webhookId>")
    .action(async (webhookId: string, _o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const hook = await unwrap(ctx.api.DELETE("/api/companies/{companyId}/webhooks/{webhookId}", { params: path(ctx, webhookId) }));
      ctx.out.value(hook, () => `Deleted webhook ${hook.id} (${hook.url})`);
    });
  webhooks
    .command("rotate")
    .description("Replace the signing secret (the old one stops signing at once); prints the new one once")
    .argument("<webhookId>")
    .action(async (webhookId: string, _o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const hook = await unwrap(ctx.api.POST("/api/companies/{companyId}/webhooks/{webhookId}/rotate-secret", { params: path(ctx, webhookId) }));
      ctx.out.value(hook, () => withSecret(`Rotated the secret of webhook ${hook.id} (${hook.url}); the old secret no longer signs`, hook));
    });
  webhooks
    .command("test")
    .description("Send a ping event to the subscription now (see its deliveries)")
    .argument("<webhookId>")
    .action(async (webhookId: string, _o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const ping = await unwrap(ctx.api.POST("/api/companies/{companyId}/webhooks/{webhookId}/test", { params: path(ctx, webhookId) }));
      ctx.out.value(ping, () => `Ping queued: event ${ping.eventId}, delivery ${ping.deliveryId} (acp webhooks deliveries ${webhookId})`);
    });
  webhooks
    .command("deliveries")
    .description("The subscription's deliveries, newest first")
    .argument("<webhookId>")
    .option("--limit <n>", "at most this many (up to 500)", positive, 20)
    .option("--cursor <cursor>", "the next page (printed when there is one)")
    .action(async (webhookId: string, opts: { limit: number; cursor?: string }, command: Command) => {
      const ctx = cliContext(command);
      const page = await unwrap(
        ctx.api.GET("/api/companies/{companyId}/webhooks/{webhookId}/deliveries", {
          params: { ...path(ctx, webhookId), query: { limit: opts.limit, cursor: opts.cursor } },
        }),
      );
      if (ctx.out.json) return ctx.out.value(page);
      ctx.out.table(page.deliveries, [
        ["Id", "id"],
        ["Event", "eventType"],
        ["Status", "status"],
        ["Attempts", "attempts"],
        ["HTTP", "responseStatus"],
        ["Latency", (d) => (d.latencyMs === null ? "" : `${d.latencyMs} ms`)],
        ["Next attempt", (d) => minute(d.nextAttemptAt)],
        ["Last error", "lastError"],
        ["Created", (d) => minute(d.createdAt)],
      ]);
      if (page.nextCursor) ctx.out.note(`More: acp webhooks deliveries ${webhookId} --cursor ${page.nextCursor}`);
    });
  webhooks
    .command("redeliver")
    .description("Send a delivery's event (same event id) again, as a new delivery")
    .argument("<webhookId>")
    .argument("<deliveryId>")
    .action(async (webhookId: string, deliveryId: string, _o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const delivery = await unwrap(
        ctx.api.POST("/api/companies/{companyId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", {
          params: { path: { companyId: ctx.companyId(), webhookId, deliveryId } },
        }),
      );
      ctx.out.value(delivery, () => `Redelivery ${delivery.id} queued: ${delivery.eventType} ${delivery.eventId}`);
    });
}

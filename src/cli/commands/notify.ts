// `acp notify`: the selected company's notification channels (board): list them, add one (Slack,
// Discord, Teams by webhook URL; Telegram by bot token and chat; email through Resend or Postmark),
// send a test message (answers whether it arrived), and a channel's delivery log.
import type { Command } from "commander";
import type { components } from "../../client";
import { cliContext, unwrap, type CliContext } from "../context";
import { CliError, minute } from "../output";

type Channel = components["schemas"]["NotificationChannel"];
type Delivery = components["schemas"]["NotificationDelivery"];
const KINDS = ["slack", "discord", "telegram", "teams", "email"] as const;

const state = (c: Channel) => (c.enabled ? "enabled" : c.disabledReason ? `disabled: ${c.disabledReason}` : "disabled");
const where = (c: Channel) => (c.kind === "telegram" ? `chat ${c.chatId}` : c.kind === "email" ? `${c.provider} → ${(c.to ?? []).join(", ")}` : "webhook");
const outcome = (d: Delivery) =>
  d.status === "succeeded"
    ? `delivered (HTTP ${d.responseStatus})`
    : d.status === "pending"
      ? `pending: ${d.lastError ?? "queued"} (retried)`
      : `failed: ${d.lastError}`;
const path = (ctx: CliContext, channelId: string) => ({ path: { companyId: ctx.companyId(), channelId } });

export function notifyCommands(program: Command) {
  const notify = program.command("notify").description("Notification channels of the selected company (Slack, Discord, Telegram, Teams, email)");
  notify
    .command("channels")
    .description("List the channels (never a URL, token or key: only their secret references)")
    .action(async (_o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const channels = await unwrap(ctx.api.GET("/api/companies/{companyId}/notification-channels", { params: { path: { companyId: ctx.companyId() } } }));
      ctx.out.table(channels, [
        ["Id", "id"],
        ["Kind", "kind"],
        ["Name", "name"],
        ["To", where],
        ["Events", (c) => c.events.join(",")],
        ["State", state],
      ]);
    });
  notify
    .command("add")
    .description(
      "Add a channel: the target is the webhook URL (slack, discord, teams), the bot token (telegram) or the provider's API key (email); it is kept as a company secret",
    )
    .argument("<kind>", KINDS.join(" | "))
    .argument("<name>")
    .requiredOption("--target <value>", "webhook URL, bot token or API key (stored as a company secret)")
    .option("--events <patterns>", "event types or prefix.*, comma-separated (default: every notable event)")
    .option("--chat <id>", "telegram: the chat id")
    .option("--provider <name>", "email: resend or postmark")
    .option("--from <address>", "email: the sender")
    .option("--to <addresses>", "email: recipients, comma-separated")
    .option("--api-base-url <url>", "telegram or email: another API server")
    .option("--digest-hour <hour>", "a daily digest at this hour (0–23)")
    .option("--time-zone <zone>", "the digest hour's IANA time zone (default UTC)")
    .action(
      async (
        kind: string,
        name: string,
        opts: {
          target: string;
          events?: string;
          chat?: string;
          provider?: string;
          from?: string;
          to?: string;
          apiBaseUrl?: string;
          digestHour?: string;
          timeZone?: string;
        },
        command: Command,
      ) => {
        const ctx = cliContext(command);
        if (!(KINDS as readonly string[]).includes(kind)) throw new CliError(`Unknown kind ${kind}; one of ${KINDS.join(", ")}`);
        const list = (v?: string) =>
          v
            ?.split(",")
            .map((s) => s.trim())
            .filter(Boolean);
        const digestHour = opts.digestHour === undefined ? undefined : Number(opts.digestHour);
        if (digestHour !== undefined && !(Number.isInteger(digestHour) && digestHour >= 0 && digestHour <= 23))
          throw new CliError("--digest-hour must be 0–23");
        const created = await unwrap(
          ctx.api.POST("/api/companies/{companyId}/notification-channels", {
            params: { path: { companyId: ctx.companyId() } },
            body: {
              kind: kind as (typeof KINDS)[number],
              name,
              target: opts.target,
              events: list(opts.events),
              chatId: opts.chat,
              provider: opts.provider as "resend" | "postmark" | undefined,
              from: opts.from,
              to: list(opts.to),
              apiBaseUrl: opts.apiBaseUrl,
              digestHour,
              timeZone: opts.timeZone,
            },
          }),
        );
        ctx.out.value(created, () => `Added ${created.kind} channel ${created.name} (${created.id}); try it: acp notify test ${created.id}`);
      },
    );
  notify
    .command("test")
    .description("Send a test message now and say whether it arrived")
    .argument("<channelId>")
    .action(async (channelId: string, _o: unknown, command: Command) => {
      const ctx = cliContext(command);
      const delivery = await unwrap(ctx.api.POST("/api/companies/{companyId}/notification-channels/{channelId}/test", { params: path(ctx, channelId) }));
      ctx.out.value(delivery, () => `Test message ${delivery.id}: ${outcome(delivery)}`);
      if (delivery.status === "failed") process.exitCode = 1;
    });
  notify
    .command("log")
    .description("A channel's deliveries, newest first")
    .argument("<channelId>")
    .option("--status <status>", "pending, succeeded or failed")
    .option("--limit <n>", "at most this many", (v) => Number.parseInt(v, 10), 20)
    .action(async (channelId: string, opts: { status?: string; limit: number }, command: Command) => {
      const ctx = cliContext(command);
      const deliveries = await unwrap(
        ctx.api.GET("/api/companies/{companyId}/notification-channels/{channelId}/deliveries", {
          params: { ...path(ctx, channelId), query: { status: opts.status as Delivery["status"] | undefined, limit: opts.limit } },
        }),
      );
      ctx.out.table(deliveries, [
        ["Id", "id"],
        ["When", (d) => minute(d.createdAt)],
        ["Event", "eventType"],
        ["Message", "title"],
        ["Attempts", "attempts"],
        ["Outcome", outcome],
      ]);
    });
}

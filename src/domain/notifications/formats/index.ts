// Every service a notification can go to: its request from a Notification and the target's
// resolved settings (secrets already opened), and what its answer means. The delivery engine calls
// `notificationRequest` and `classifyNotificationAnswer`; each service's module says its own shapes.
import type { DeliveryOutcome, Notification, OutboundRequest } from "../message";
import type { ServiceAnswer } from "./answer";
import { classifyDiscordAnswer, type DiscordSettings, discordRequest } from "./discord";
import type { EmailSettings } from "./email";
import { classifyPostmarkAnswer, postmarkRequest } from "./postmark";
import { classifyPushAnswer, type PushSettings, pushNotificationRequest } from "./push";
import { classifyResendAnswer, resendRequest } from "./resend";
import { classifySlackAnswer, type SlackSettings, slackRequest } from "./slack";
import { classifyTeamsAnswer, type TeamsSettings, teamsRequest } from "./teams";
import { classifyTelegramAnswer, type TelegramSettings, telegramRequest } from "./telegram";

export type { ServiceAnswer } from "./answer";
export type { DiscordSettings } from "./discord";
export type { EmailSettings } from "./email";
export type { PushPayload, PushSettings, PushSubscription } from "./push";
export { isSubscriptionGone, PUSH_SUBSCRIPTION_GONE, pushPayload, pushRequest } from "./push";
export type { SlackSettings } from "./slack";
export type { TeamsSettings } from "./teams";
export type { TelegramSettings } from "./telegram";
export { redactBotToken } from "./telegram";

/** Where one notification goes, with everything its request needs. */
export type NotificationTarget =
  | ({ kind: "slack" } & SlackSettings)
  | ({ kind: "discord" } & DiscordSettings)
  | ({ kind: "telegram" } & TelegramSettings)
  | ({ kind: "teams" } & TeamsSettings)
  | ({ kind: "email" } & EmailSettings)
  | ({ kind: "push" } & PushSettings);

export type NotificationTargetKind = NotificationTarget["kind"];

/** The one request that delivers `notification` to `target` (async: a push message is encrypted). */
export async function notificationRequest(notification: Notification, target: NotificationTarget): Promise<OutboundRequest> {
  switch (target.kind) {
    case "slack":
      return slackRequest(notification, target);
    case "discord":
      return discordRequest(notification, target);
    case "telegram":
      return telegramRequest(notification, target);
    case "teams":
      return teamsRequest(notification, target);
    case "email":
      return target.provider === "postmark" ? postmarkRequest(notification, target) : resendRequest(notification, target);
    case "push":
      return pushNotificationRequest(notification, target);
  }
}

/** What the service's answer means for the delivery (email: by its provider). */
export function classifyNotificationAnswer(
  target: { kind: Exclude<NotificationTargetKind, "email"> } | { kind: "email"; provider: EmailSettings["provider"] },
  answer: ServiceAnswer,
  nowMs = Date.now(),
): DeliveryOutcome {
  switch (target.kind) {
    case "slack":
      return classifySlackAnswer(answer, nowMs);
    case "discord":
      return classifyDiscordAnswer(answer, nowMs);
    case "telegram":
      return classifyTelegramAnswer(answer, nowMs);
    case "teams":
      return classifyTeamsAnswer(answer, nowMs);
    case "email":
      return target.provider === "postmark" ? classifyPostmarkAnswer(answer, nowMs) : classifyResendAnswer(answer, nowMs);
    case "push":
      return classifyPushAnswer(answer, nowMs);
  }
}

// Where a notable event goes. Pure: the company's channels whose `events` match it (none when it
// is one person's business: a question asked of them, an issue assigned to them), and each
// member whose preferences take its topic, on their own channels (email, each browser with push
// on). A member's quiet hours hold their deliveries until the hours end, in the member's time zone.
import { matchesEventPatterns } from "../events/catalogue";
import type { NotificationChannelKind } from "../../db/schema/notifications";
import { DEFAULT_TOPICS, type Audience, type NotificationTopic } from "./notable";

export interface ChannelFacts {
  id: string;
  kind: NotificationChannelKind;
  events: string[];
}

export interface MemberFacts {
  userId: string;
  topics: Partial<Record<NotificationTopic, boolean>>;
  email: string | null;
  emailEnabled: boolean;
  pushEnabled: boolean;
  quietStart: string | null;
  quietEnd: string | null;
  timeZone: string;
  pushSubscriptionIds: string[];
}

export type Destination =
  | { destination: NotificationChannelKind; channelId: string; key: string; notBefore: string | null }
  | { destination: "personal_email"; userId: string; key: string; notBefore: string | null }
  | { destination: "web_push"; userId: string; pushSubscriptionId: string; key: string; notBefore: string | null };

const minutesOf = (hhmm: string | null) => {
  const m = hhmm ? /^(\d{2}):(\d{2})$/.exec(hhmm) : null;
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
};

/** The local time of day (minutes) in `timeZone` at `now`. */
export function localMinutes(now: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get("hour") * 60 + get("minute");
}

/** When the member's quiet hours end, if `now` is inside them (null otherwise). */
export function quietUntil(member: Pick<MemberFacts, "quietStart" | "quietEnd" | "timeZone">, now: Date): string | null {
  const start = minutesOf(member.quietStart);
  const end = minutesOf(member.quietEnd);
  if (start === null || end === null || start === end) return null;
  const m = localMinutes(now, member.timeZone);
  const quiet = start < end ? m >= start && m < end : m >= start || m < end;
  if (!quiet) return null;
  const wait = (end - m + 1440) % 1440;
  return new Date(now.getTime() + wait * 60_000 - now.getUTCSeconds() * 1000 - now.getUTCMilliseconds()).toISOString();
}

export function destinationsFor(
  eventType: string,
  eventId: string,
  audience: Audience,
  channels: ChannelFacts[],
  members: MemberFacts[],
  options: { emailAvailable: boolean; now: Date },
): Destination[] {
  const out: Destination[] = [];
  if (!audience.onlyUserId) {
    for (const c of channels) {
      if (c.id === audience.excludeChannelId || !matchesEventPatterns(eventType, c.events)) continue;
      out.push({ destination: c.kind, channelId: c.id, key: `${eventId}:${c.id}`, notBefore: null });
    }
  }
  for (const member of members) {
    if (audience.onlyUserId && member.userId !== audience.onlyUserId) continue;
    if (!(member.topics[audience.topic] ?? DEFAULT_TOPICS[audience.topic])) continue;
    const notBefore = quietUntil(member, options.now);
    if (member.emailEnabled && member.email && options.emailAvailable)
      out.push({ destination: "personal_email", userId: member.userId, key: `${eventId}:email:${member.userId}`, notBefore });
    if (member.pushEnabled)
      for (const id of member.pushSubscriptionIds)
        out.push({ destination: "web_push", userId: member.userId, pushSubscriptionId: id, key: `${eventId}:push:${id}`, notBefore });
  }
  return out;
}

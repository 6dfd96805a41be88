// The daily digest, per member (at their digest hour, in their time zone, on their own channels)
// and per channel (at the channel's digest hour): what finished in the last day, what is blocked,
// what waits on the reader (approvals, questions asked of them or of the board, issues assigned to
// them), and the day's and the month's spend against the budget. The cron looks every minute for
// digests that are due and not yet sent today (local date), enqueues them as deliveries (unique
// per day and destination) and marks them sent, on each shard.
import { and, count, desc, eq, gte, isNotNull, isNull, or, sql, sum } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { ReadBatch } from "../../db/read-batch";
import { runBatch, type Statement } from "../../db/batch";
import { deliveryInsert } from "./enqueue";
import type { Notification } from "./message";
import type { Destination } from "./routing";

/** The local date (YYYY-MM-DD) and hour in `timeZone` at `now`. */
export function localDateHour(now: Date, timeZone: string): { date: string; hour: number } {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    hourCycle: "h23",
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return { date: `${get("year")}-${get("month")}-${get("day")}`, hour: Number(get("hour")) };
}

export interface DigestFacts {
  company: { id: string; name: string; issuePrefix: string; budgetMonthlyCents: number };
  consoleUrl: string;
  finished: Array<{ identifier: string; title: string }>;
  finishedCount: number;
  blocked: Array<{ identifier: string; title: string }>;
  blockedCount: number;
  pendingApprovals: number;
  openQuestions: number;
  assignedToReader: number;
  spentTodayCents: number;
  spentMonthCents: number;
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const list = (items: Array<{ identifier: string; title: string }>, total: number) =>
  items.map((i) => `• ${i.identifier} ${i.title}`).join("\n") + (total > items.length ? `\n… and ${total - items.length} more` : "");

/** The digest as a notification (pure). */
export function digestNotification(facts: DigestFacts, reader: "member" | "channel"): Notification {
  const waiting = facts.pendingApprovals + facts.openQuestions + (reader === "member" ? facts.assignedToReader : 0);
  const sections = [
    facts.finishedCount
      ? `Finished in the last day (${facts.finishedCount}):\n${list(facts.finished, facts.finishedCount)}`
      : "Nothing finished in the last day.",
    facts.blockedCount ? `Blocked (${facts.blockedCount}):\n${list(facts.blocked, facts.blockedCount)}` : "Nothing is blocked.",
    waiting
      ? `Waiting on ${reader === "member" ? "you" : "the board"}: ${[
          facts.pendingApprovals ? `${facts.pendingApprovals} approval${facts.pendingApprovals === 1 ? "" : "s"}` : null,
          facts.openQuestions ? `${facts.openQuestions} question${facts.openQuestions === 1 ? "" : "s"}` : null,
          reader === "member" && facts.assignedToReader ? `${facts.assignedToReader} issue${facts.assignedToReader === 1 ? "" : "s"} assigned to you` : null,
        ]
          .filter(Boolean)
          .join(", ")}.`
      : `Nothing waits on ${reader === "member" ? "you" : "the board"}.`,
  ];
  const budget = facts.company.budgetMonthlyCents;
  return {
    eventType: "digest",
    title: `Daily digest: ${facts.company.name}`,
    body: sections.join("\n\n"),
    actor: null,
    fields: [
      { label: "Finished", value: String(facts.finishedCount) },
      { label: "Blocked", value: String(facts.blockedCount) },
      { label: "Waiting", value: String(waiting) },
      { label: "Spend today", value: dollars(facts.spentTodayCents) },
      { label: "Spend this month", value: budget > 0 ? `${dollars(facts.spentMonthCents)} of ${dollars(budget)}` : dollars(facts.spentMonthCents) },
    ],
    link: {
      url: `${facts.consoleUrl.replace(/\/+$/, "")}/${encodeURIComponent(facts.company.issuePrefix)}/${waiting ? "inbox" : "dashboard"}`,
      label: waiting ? "Open Waiting on you" : "Open the dashboard",
    },
    level: waiting ? "warning" : "info",
    company: { id: facts.company.id, name: facts.company.name },
  };
}

/** The company's day (and, for a member, what waits on them): one read batch. */
export async function digestFacts(db: Db, companyId: string, consoleUrl: string, now: Date, readerUserId: string | null): Promise<DigestFacts> {
  const i = schema.issues;
  const dayAgo = new Date(now.getTime() - 24 * 3600_000).toISOString();
  const monthStart = `${now.toISOString().slice(0, 7)}-01T00:00:00.000Z`;
  const batch = new ReadBatch(db);
  const company = batch.add(
    db
      .select({
        id: schema.companies.id,
        name: schema.companies.name,
        issuePrefix: schema.companies.issuePrefix,
        budgetMonthlyCents: schema.companies.budgetMonthlyCents,
      })
      .from(schema.companies)
      .where(eq(schema.companies.id, companyId)),
  );
  const finished = batch.add(
    db
      .select({ identifier: i.identifier, title: i.title })
      .from(i)
      .where(and(eq(i.companyId, companyId), eq(i.status, "done"), gte(i.completedAt, dayAgo), isNull(i.hiddenAt)))
      .orderBy(desc(i.completedAt))
      .limit(5),
  );
  const finishedCount = batch.add(
    db
      .select({ n: count() })
      .from(i)
      .where(and(eq(i.companyId, companyId), eq(i.status, "done"), gte(i.completedAt, dayAgo), isNull(i.hiddenAt))),
  );
  const blocked = batch.add(
    db
      .select({ identifier: i.identifier, title: i.title })
      .from(i)
      .where(and(eq(i.companyId, companyId), eq(i.status, "blocked"), isNull(i.hiddenAt)))
      .orderBy(desc(i.updatedAt))
      .limit(5),
  );
  const blockedCount = batch.add(
    db
      .select({ n: count() })
      .from(i)
      .where(and(eq(i.companyId, companyId), eq(i.status, "blocked"), isNull(i.hiddenAt))),
  );
  const approvals = batch.add(
    db
      .select({ n: count() })
      .from(schema.approvals)
      .where(and(eq(schema.approvals.companyId, companyId), eq(schema.approvals.status, "pending"))),
  );
  const q = schema.issueQuestions;
  const questions = batch.add(
    db
      .select({ n: count() })
      .from(q)
      .where(
        and(
          eq(q.companyId, companyId),
          eq(q.status, "open"),
          readerUserId ? or(isNull(q.askedOfUserId), eq(q.askedOfUserId, readerUserId)) : isNull(q.askedOfUserId),
        ),
      ),
  );
  const assigned = batch.add(
    db
      .select({ n: count() })
      .from(i)
      .where(and(eq(i.companyId, companyId), eq(i.assigneeUserId, readerUserId ?? ""), sql`${i.status} NOT IN ('done', 'cancelled')`)),
  );
  const c = schema.costEvents;
  const spend = batch.add(
    db
      .select({ day: sum(sql`CASE WHEN ${c.occurredAt} >= ${dayAgo} THEN ${c.costCents} ELSE 0 END`), month: sum(c.costCents) })
      .from(c)
      .where(and(eq(c.companyId, companyId), gte(c.occurredAt, monthStart))),
  );
  await batch.run();
  const row = company.value[0];
  return {
    company: { id: companyId, name: row?.name ?? "", issuePrefix: row?.issuePrefix ?? "", budgetMonthlyCents: row?.budgetMonthlyCents ?? 0 },
    consoleUrl,
    finished: finished.value,
    finishedCount: finishedCount.value[0]?.n ?? 0,
    blocked: blocked.value,
    blockedCount: blockedCount.value[0]?.n ?? 0,
    pendingApprovals: approvals.value[0]?.n ?? 0,
    openQuestions: questions.value[0]?.n ?? 0,
    assignedToReader: assigned.value[0]?.n ?? 0,
    spentTodayCents: Number(spend.value[0]?.day ?? 0),
    spentMonthCents: Number(spend.value[0]?.month ?? 0),
  };
}

/**
 * Digests due at `now` on this shard (the cron runs it per shard): each enqueued once per local
 * day; answers the companies that got one (their event hubs send them).
 */
export async function enqueueDueDigests(db: Db, consoleUrl: string, now: Date): Promise<string[]> {
  const p = schema.notificationPreferences;
  const ch = schema.notificationChannels;
  const [members, channels, emailChannels, subscriptions, memberships] = await db.batch([
    db
      .select()
      .from(p)
      .where(and(isNotNull(p.digestHour), or(eq(p.emailEnabled, true), eq(p.pushEnabled, true)))),
    db
      .select()
      .from(ch)
      .where(and(isNotNull(ch.digestHour), eq(ch.enabled, true))),
    db
      .select({ companyId: ch.companyId })
      .from(ch)
      .where(and(eq(ch.kind, "email"), eq(ch.enabled, true))),
    db
      .select({ id: schema.pushSubscriptions.id, companyId: schema.pushSubscriptions.companyId, userId: schema.pushSubscriptions.userId })
      .from(schema.pushSubscriptions),
    db
      .select({ companyId: schema.companyMemberships.companyId, userId: schema.companyMemberships.principalId })
      .from(schema.companyMemberships)
      .where(and(eq(schema.companyMemberships.principalType, "user"), eq(schema.companyMemberships.status, "active"))),
  ]);
  const active = new Set(memberships.map((m) => `${m.companyId}:${m.userId}`));
  const withEmail = new Set(emailChannels.map((c) => c.companyId));
  const at = now.toISOString();
  const statements: Statement[] = [];
  const companies = new Set<string>();
  for (const member of members) {
    const local = localDateHour(now, member.timeZone);
    if (local.hour !== member.digestHour || member.lastDigestOn === local.date || !active.has(`${member.companyId}:${member.userId}`)) continue;
    const facts = await digestFacts(db, member.companyId, consoleUrl, now, member.userId);
    const message = digestNotification(facts, "member");
    const key = `digest:${local.date}:${member.userId}`;
    const destinations: Destination[] = [];
    if (member.emailEnabled && member.email && withEmail.has(member.companyId))
      destinations.push({ destination: "personal_email", userId: member.userId, key: `${key}:email`, notBefore: null });
    if (member.pushEnabled)
      for (const sub of subscriptions.filter((s) => s.companyId === member.companyId && s.userId === member.userId))
        destinations.push({ destination: "web_push", userId: member.userId, pushSubscriptionId: sub.id, key: `${key}:push:${sub.id}`, notBefore: null });
    for (const d of destinations) statements.push(deliveryInsert(db, member.companyId, d, null, message, at));
    statements.push(db.update(p).set({ lastDigestOn: local.date }).where(eq(p.id, member.id)));
    if (destinations.length) companies.add(member.companyId);
  }
  for (const channel of channels) {
    const local = localDateHour(now, channel.timeZone);
    if (local.hour !== channel.digestHour || channel.lastDigestOn === local.date) continue;
    const facts = await digestFacts(db, channel.companyId, consoleUrl, now, null);
    statements.push(
      deliveryInsert(
        db,
        channel.companyId,
        { destination: channel.kind, channelId: channel.id, key: `digest:${local.date}:${channel.id}`, notBefore: null },
        null,
        digestNotification(facts, "channel"),
        at,
      ),
      db.update(ch).set({ lastDigestOn: local.date }).where(eq(ch.id, channel.id)),
    );
    companies.add(channel.companyId);
  }
  for (let i = 0; i < statements.length; i += 50) await runBatch(db, statements.slice(i, i + 50));
  return [...companies];
}

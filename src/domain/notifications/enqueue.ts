// Turning queued notable events into deliveries (run by the company's event hub). The queue is
// written by the database with each notable event (trigger notification_queue_on_event); this
// reads a page of it with the events, the names the messages use and where they may go (channels,
// members' preferences and push subscriptions), inserts one delivery per destination — unique per
// (event, destination), so a page read twice after an eviction inserts nothing twice — and removes
// the page from the queue, in one batch.
import { and, asc, eq, inArray } from "drizzle-orm";
import { schema, type Db } from "../../db/client";
import { ReadBatch } from "../../db/read-batch";
import { runBatch, type Statement } from "../../db/batch";
import { inIds } from "../../db/id-list";
import { newId } from "../../crypto/random";
import { eventView, type ServiceEvent } from "../events/outbox";
import { notableEvent, type NotificationFacts } from "./notable";
import { destinationsFor, type ChannelFacts, type Destination, type MemberFacts } from "./routing";
import type { Notification } from "./message";
import type { NotificationTopic } from "./notable";

const PAGE = 50;

/** Everything routing needs: enabled channels, and the active members with their preferences and browsers. */
export async function routingFacts(db: Db, companyId: string) {
  const c = schema.notificationChannels;
  const m = schema.companyMemberships;
  const p = schema.notificationPreferences;
  const s = schema.pushSubscriptions;
  const batch = new ReadBatch(db);
  const channels = batch.add(
    db
      .select({ id: c.id, kind: c.kind, events: c.events, name: c.name })
      .from(c)
      .where(and(eq(c.companyId, companyId), eq(c.enabled, true))),
  );
  const members = batch.add(
    db
      .select({ userId: m.principalId })
      .from(m)
      .where(and(eq(m.companyId, companyId), eq(m.principalType, "user"), eq(m.status, "active"))),
  );
  const preferences = batch.add(db.select().from(p).where(eq(p.companyId, companyId)));
  const subscriptions = batch.add(db.select({ id: s.id, userId: s.userId }).from(s).where(eq(s.companyId, companyId)));
  await batch.run();
  const active = new Set(members.value.map((r) => r.userId));
  const prefs = new Map(preferences.value.map((r) => [r.userId, r]));
  const memberFacts: MemberFacts[] = [...active].flatMap((userId) => {
    const pref = prefs.get(userId);
    if (!pref) return [];
    return [
      {
        userId,
        topics: pref.topics as Partial<Record<NotificationTopic, boolean>>,
        email: pref.email,
        emailEnabled: pref.emailEnabled,
        pushEnabled: pref.pushEnabled,
        quietStart: pref.quietStart,
        quietEnd: pref.quietEnd,
        timeZone: pref.timeZone,
        pushSubscriptionIds: subscriptions.value.filter((sub) => sub.userId === userId).map((sub) => sub.id),
      },
    ];
  });
  return {
    channels: channels.value as Array<ChannelFacts & { name: string }>,
    members: memberFacts,
    /** Personal email goes through the company's email channel (its provider, key and from-address). */
    emailAvailable: channels.value.some((ch) => ch.kind === "email"),
  };
}

/** The names the messages for `events` use. */
export async function notificationFacts(db: Db, companyId: string, events: ServiceEvent[], consoleUrl: string): Promise<NotificationFacts> {
  const ids = (pick: (e: ServiceEvent) => unknown[]) => [...new Set(events.flatMap(pick).filter((v): v is string => typeof v === "string" && v !== ""))];
  const issueIds = ids((e) => [e.subject.type === "issue" ? e.subject.id : null, e.data.issueId]);
  const approvalIds = ids((e) => [e.subject.type === "approval" ? e.subject.id : null]);
  const questionIds = ids((e) => [e.subject.type === "issue_question" ? e.subject.id : null]);
  const webhookIds = ids((e) => [e.subject.type === "webhook" ? e.subject.id : null]);
  const channelIds = ids((e) => [e.subject.type === "notification_channel" ? e.subject.id : null]);
  const userIds = ids((e) => [e.actor.type === "user" ? e.actor.id : null]);
  const batch = new ReadBatch(db);
  const company = batch.add(
    db
      .select({ id: schema.companies.id, name: schema.companies.name, issuePrefix: schema.companies.issuePrefix })
      .from(schema.companies)
      .where(eq(schema.companies.id, companyId)),
  );
  const agents = batch.add(db.select({ id: schema.agents.id, name: schema.agents.name }).from(schema.agents).where(eq(schema.agents.companyId, companyId)));
  const issues = issueIds.length
    ? batch.add(
        db
          .select({ id: schema.issues.id, identifier: schema.issues.identifier, title: schema.issues.title })
          .from(schema.issues)
          .where(and(eq(schema.issues.companyId, companyId), inIds(schema.issues.id, issueIds))),
      )
    : null;
  const approvals = approvalIds.length
    ? batch.add(
        db
          .select({ id: schema.approvals.id, type: schema.approvals.type, payload: schema.approvals.payload })
          .from(schema.approvals)
          .where(and(eq(schema.approvals.companyId, companyId), inIds(schema.approvals.id, approvalIds))),
      )
    : null;
  const questions = questionIds.length
    ? batch.add(
        db
          .select({ id: schema.issueQuestions.id, prompt: schema.issueQuestions.prompt, issueId: schema.issueQuestions.issueId })
          .from(schema.issueQuestions)
          .where(and(eq(schema.issueQuestions.companyId, companyId), inIds(schema.issueQuestions.id, questionIds))),
      )
    : null;
  const webhooks = webhookIds.length
    ? batch.add(
        db
          .select({ id: schema.webhookSubscriptions.id, url: schema.webhookSubscriptions.url })
          .from(schema.webhookSubscriptions)
          .where(and(eq(schema.webhookSubscriptions.companyId, companyId), inIds(schema.webhookSubscriptions.id, webhookIds))),
      )
    : null;
  const channels = channelIds.length
    ? batch.add(
        db
          .select({ id: schema.notificationChannels.id, name: schema.notificationChannels.name, kind: schema.notificationChannels.kind })
          .from(schema.notificationChannels)
          .where(and(eq(schema.notificationChannels.companyId, companyId), inIds(schema.notificationChannels.id, channelIds))),
      )
    : null;
  const users = userIds.length
    ? batch.add(db.select({ id: schema.users.id, name: schema.users.name }).from(schema.users).where(inIds(schema.users.id, userIds)))
    : null;
  await batch.run();
  const row = company.value[0];
  return {
    company: { id: companyId, name: row?.name ?? "Your company", issuePrefix: row?.issuePrefix ?? "" },
    consoleUrl,
    agents: new Map(agents.value.map((a) => [a.id, { name: a.name }])),
    users: new Map((users?.value ?? []).map((u) => [u.id, { name: u.name }])),
    issues: new Map((issues?.value ?? []).map((i) => [i.id, { identifier: i.identifier, title: i.title }])),
    approvals: new Map(
      (approvals?.value ?? []).map((a) => [a.id, { type: a.type, title: typeof a.payload?.title === "string" && a.payload.title ? a.payload.title : null }]),
    ),
    questions: new Map((questions?.value ?? []).map((q) => [q.id, { prompt: q.prompt, issueId: q.issueId }])),
    webhooks: new Map((webhooks?.value ?? []).map((w) => [w.id, { url: w.url }])),
    channels: new Map((channels?.value ?? []).map((c) => [c.id, { name: c.name, kind: c.kind }])),
  };
}

/** The insert of one delivery of `message` to `destination` (ignored when that event already has it). */
export function deliveryInsert(
  db: Db,
  companyId: string,
  destination: Destination,
  eventId: string | null,
  message: Notification,
  now: string,
  id: string = newId(),
): Statement {
  return db
    .insert(schema.notificationDeliveries)
    .values({
      id,
      companyId,
      destination: destination.destination,
      channelId: "channelId" in destination ? destination.channelId : null,
      userId: "userId" in destination ? destination.userId : null,
      pushSubscriptionId: "pushSubscriptionId" in destination ? destination.pushSubscriptionId : null,
      eventId,
      dedupeKey: destination.key,
      message: message as unknown as Record<string, unknown>,
      status: "pending",
      attempts: 0,
      nextAttemptAt: destination.notBefore ?? now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
}

/** One page of the queue turned into deliveries; the number of events it took (0: the queue is empty). */
export async function enqueueNotifications(db: Db, companyId: string, consoleUrl: string, now = new Date()): Promise<number> {
  const q = schema.notificationQueue;
  const e = schema.companyEvents;
  const page = await db
    .select({ eventId: q.eventId, event: e })
    .from(q)
    .leftJoin(e, eq(e.id, q.eventId))
    .where(eq(q.companyId, companyId))
    .orderBy(asc(q.eventSeq))
    .limit(PAGE);
  if (!page.length) return 0;
  const events = page.flatMap((r) => (r.event ? [eventView(r.event)] : []));
  const [facts, routing] = await Promise.all([notificationFacts(db, companyId, events, consoleUrl), routingFacts(db, companyId)]);
  const at = now.toISOString();
  const statements: Statement[] = [];
  for (const event of events) {
    const notable = notableEvent(event, facts);
    if (!notable) continue;
    const destinations = destinationsFor(event.type, event.id, notable.audience, routing.channels, routing.members, {
      emailAvailable: routing.emailAvailable,
      now,
    });
    for (const destination of destinations) statements.push(deliveryInsert(db, companyId, destination, event.id, notable.notification, at));
  }
  statements.push(
    db.delete(q).where(
      and(
        eq(q.companyId, companyId),
        inArray(
          q.eventId,
          page.map((r) => r.eventId),
        ),
      ),
    ),
  );
  await runBatch(db, statements);
  return page.length;
}

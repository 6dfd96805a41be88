// Bench plug-in: outbound events. (1) Webhook deliveries per second from one company to one
// subscription (a local Node receiver answers 200 and notes each event), while the issues that
// cause them are created, and (1b) a queue of them drained with nothing else running; (2) issue create with two
// enabled subscriptions against none, same run (the outbox costs one INSERT … SELECT per event in
// the same batch); (3) SSE fan-out: 50 open streams, how long until every one has each event.
import { createServer } from "node:http";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 300);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 50);
const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

export async function benchEvents(base, { measure, withCpu, request, createCompany, concurrency }) {
  const rows = [];
  const seen = new Map();
  let countedCompany = null;
  /** While set, this company's deliveries are held unanswered (the drain measurement's queue builds behind the first). */
  let gate = null;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      // Only the measured company's events count (the hooked company's may still be arriving).
      let companyId = null;
      try {
        companyId = JSON.parse(body).companyId;
      } catch {}
      const id = req.headers["x-service-event-id"];
      if (gate && companyId === gate.companyId) {
        gate.held.push(() => {
          seen.set(id, performance.now());
          res.writeHead(200).end("ok");
        });
        return;
      }
      if (!countedCompany || companyId === countedCompany) seen.set(id, performance.now());
      res.writeHead(200).end("ok");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const receiver = `http://127.0.0.1:${server.address().port}/hook`;
  try {
    // (2) issue create: none vs two subscriptions (measured first, while the receiver is idle).
    const plain = await createCompany("Bench Events Plain");
    rows.push(
      await withCpu(
        () =>
          measure("issue create, no webhooks", 300, concurrency, (i) =>
            request("POST", `/api/companies/${plain.id}/issues`, { body: { title: `plain ${i}` } }),
          ),
        { kind: "write" },
      ),
    );
    const hooked = await createCompany("Bench Events Hooked");
    for (const events of [["issue.*"], ["*"]]) await request("POST", `/api/companies/${hooked.id}/webhooks`, { body: { url: receiver, events } });
    rows.push(
      await withCpu(
        () =>
          measure("issue create, 2 webhooks", 300, concurrency, (i) =>
            request("POST", `/api/companies/${hooked.id}/issues`, { body: { title: `hooked ${i}` } }),
          ),
        { kind: "write" },
      ),
    );

    // (1) deliveries per second, one company → one subscription.
    const flow = await createCompany("Bench Events Flow");
    await request("POST", `/api/companies/${flow.id}/webhooks`, { body: { url: receiver, events: ["issue.created"] } });
    countedCompany = flow.id;
    seen.clear();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < EVENTS) {
          const i = next++;
          await request("POST", `/api/companies/${flow.id}/issues`, { body: { title: `flow ${i}` } });
        }
      }),
    );
    const deadline = performance.now() + 120_000;
    while (seen.size < EVENTS && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const seconds = (Math.max(...seen.values()) - started) / 1000;
    rows.push({
      name: "webhook deliveries, 1 company → 1 subscription",
      count: EVENTS,
      errors: EVENTS - seen.size,
      seconds,
      rps: seen.size / seconds,
      p50: NaN,
      p95: NaN,
      p99: NaN,
      kind: "write",
    });

    // (1b) The delivery path alone: the subscription's first delivery is held unanswered while the
    // other events are created (their deliveries queue behind it, in order), then answered; the rate
    // is the queue's drain, with nothing else running.
    const drain = await createCompany("Bench Events Drain");
    await request("POST", `/api/companies/${drain.id}/webhooks`, { body: { url: receiver, events: ["issue.created"] } });
    countedCompany = drain.id;
    seen.clear();
    gate = { companyId: drain.id, held: [] };
    let queued = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (queued < EVENTS) {
          const i = queued++;
          await request("POST", `/api/companies/${drain.id}/issues`, { body: { title: `drain ${i}` } });
        }
      }),
    );
    const heldDeadline = performance.now() + 10_000;
    while (!gate.held.length && performance.now() < heldDeadline) await new Promise((r) => setTimeout(r, 10));
    const held = gate.held;
    gate = null;
    const released = performance.now();
    for (const answer of held) answer();
    const drainDeadline = performance.now() + 120_000;
    while (seen.size < EVENTS && performance.now() < drainDeadline) await new Promise((r) => setTimeout(r, 10));
    const drainSeconds = (Math.max(...seen.values()) - released) / 1000;
    rows.push({
      name: "webhook deliveries, 1 subscription, a queue of them drained (the delivery path alone)",
      count: EVENTS,
      errors: EVENTS - seen.size,
      seconds: drainSeconds,
      rps: seen.size / drainSeconds,
      p50: NaN,
      p95: NaN,
      p99: NaN,
      kind: "write",
    });

    // (3) SSE fan-out to STREAMS clients.
    const fan = await createCompany("Bench Events Fan-out");
    const arrivals = [];
    const controllers = [];
    await Promise.all(
      Array.from({ length: STREAMS }, async (_, c) => {
        const controller = new AbortController();
        controllers.push(controller);
        const res = await fetch(`${base}/api/companies/${fan.id}/events/stream`, { headers: { accept: "text/event-stream" }, signal: controller.signal });
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        void (async () => {
          let buffer = "";
          try {
            for (;;) {
              const { value, done } = await reader.read();
              if (done) return;
              buffer += decoder.decode(value, { stream: true });
              for (const match of buffer.matchAll(/^data: (.*)$/gm)) {
                const event = JSON.parse(match[1]);
                arrivals.push({ client: c, title: event.data.title, at: performance.now() });
              }
              buffer = buffer.slice(buffer.lastIndexOf("\n\n") + 2);
            }
          } catch {
            /* aborted */
          }
        })();
      }),
    );
    const FAN_EVENTS = 20;
    const sentAt = new Map();
    for (let i = 0; i < FAN_EVENTS; i++) {
      sentAt.set(`fan ${i}`, performance.now());
      await request("POST", `/api/companies/${fan.id}/issues`, { body: { title: `fan ${i}` } });
    }
    const fanDeadline = performance.now() + 60_000;
    while (arrivals.length < FAN_EVENTS * STREAMS && performance.now() < fanDeadline) await new Promise((r) => setTimeout(r, 20));
    for (const controller of controllers) controller.abort();
    const latencies = arrivals.map((a) => a.at - sentAt.get(a.title)).sort((a, b) => a - b);
    rows.push({
      name: `SSE fan-out to ${STREAMS} streams (per delivered event)`,
      count: FAN_EVENTS * STREAMS,
      errors: FAN_EVENTS * STREAMS - arrivals.length,
      seconds: NaN,
      rps: NaN,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
    });
  } finally {
    server.close();
  }
  return rows;
}

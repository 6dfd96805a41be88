// The http adapter's rules straight at the module: private-network targets, what each answer
// means, Retry-After parsing, and the run-state decisions of the dispatcher.
import { describe, expect, it } from "vitest";
import { isPrivateTarget } from "../../src/net/hosts";
import { invokeHttpAgent, retryAfterSeconds } from "../../src/adapters/http/invoke";
import { readHttpConfig } from "../../src/adapters/http/config";
import { httpAdapter } from "../../src/adapters/http";
import { remoteGatewayAdapter } from "../../src/adapters/remote-gateway";
import { decideWakeups, type DispatchAgent } from "../../src/domain/runs/dispatch";
import { backoffSeconds } from "../../src/domain/runs/lifecycle";

describe("private-network targets", () => {
  it.each([
    "localhost",
    "127.0.0.1",
    "10.1.2.3",
    "172.20.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "[::1]",
    "fd00::1",
    "api.internal",
    "::ffff:127.0.0.1",
    "100.64.0.1",
  ])("%s is private", (host) => {
    expect(isPrivateTarget(host)).toBe(true);
  });
  it.each(["[::ffff:7f00:1]", "::ffff:a00:1", "::7f00:1", "64:ff9b::a9fe:a9fe"].map((h) => new URL(`http://${h.startsWith("[") ? h : `[${h}]`}`).hostname))(
    "%s (IPv4 written in hex, as URL parsing normalises it) is private",
    (host) => {
      expect(isPrivateTarget(host)).toBe(true);
    },
  );
  it.each(["agents.example.com", "8.8.8.8", "172.32.0.1", "192.169.0.1", "2001:db8::1", "::ffff:808:808"])("%s is public", (host) => {
    expect(isPrivateTarget(host)).toBe(false);
  });
  it("a publicly exposed service refuses loopback and private-network gateways and callback URLs", () => {
    for (const apiBaseUrl of ["http://127.0.0.1:9/api", "https://10.1.2.3/api", "https://metadata.internal/api", "https://[::ffff:7f00:1]/api"]) {
      expect(() => remoteGatewayAdapter.checkPolicy!({ apiBaseUrl }, { exposure: "public", workersAi: false }), apiBaseUrl).toThrow(/private-network/);
      expect(() => remoteGatewayAdapter.checkPolicy!({ apiBaseUrl }, { exposure: "private", workersAi: false })).not.toThrow();
    }
    expect(() =>
      remoteGatewayAdapter.checkPolicy!(
        { apiBaseUrl: "https://gw.example.com/api", paperclipApiUrl: "http://192.168.1.5" },
        { exposure: "public", workersAi: false },
      ),
    ).toThrow(/paperclipApiUrl/);
    expect(() => remoteGatewayAdapter.checkPolicy!({ apiBaseUrl: "https://gw.example.com/api" }, { exposure: "public", workersAi: false })).not.toThrow();
  });
  it("a publicly exposed service refuses to store a private target (422); a private one allows it", () => {
    expect(() => httpAdapter.checkPolicy!({ url: "http://127.0.0.1:9/x" }, { exposure: "public", workersAi: false })).toThrow(/private-network/);
    expect(() => httpAdapter.checkPolicy!({ url: "https://10.0.0.5/x" }, { exposure: "public", workersAi: false })).toThrow(/private-network/);
    expect(() => httpAdapter.checkPolicy!({ url: "https://agents.example.com/x" }, { exposure: "public", workersAi: false })).not.toThrow();
    expect(() => httpAdapter.checkPolicy!({ url: "http://127.0.0.1:9/x" }, { exposure: "private", workersAi: false })).not.toThrow();
  });
});

describe("invokeHttpAgent", () => {
  const config = readHttpConfig({ url: "https://agents.example.com/wake", headers: { Authorization: "x", "X-Team": "a" } });
  const answer =
    (status: number, body = "", headers: Record<string, string> = {}) =>
    async () =>
      new Response(body || null, { status, headers });

  it("maps answers to outcomes", async () => {
    const opts = { exposure: "private" as const };
    expect(await invokeHttpAgent(config, "r", {}, { ...opts, fetcher: answer(202) })).toEqual({ kind: "accepted" });
    expect(await invokeHttpAgent(config, "r", {}, { ...opts, fetcher: answer(200, JSON.stringify({ summary: "ok", usage: { costCents: 1 } })) })).toMatchObject(
      { kind: "succeeded", summary: "ok", usage: { costCents: 1 } },
    );
    expect(await invokeHttpAgent(config, "r", {}, { ...opts, fetcher: answer(204) })).toMatchObject({ kind: "succeeded", summary: null });
    expect(await invokeHttpAgent(config, "r", {}, { ...opts, fetcher: answer(429, "", { "retry-after": "7" }) })).toEqual({
      kind: "retry",
      retryAfterSec: 7,
      status: 429,
    });
    expect(await invokeHttpAgent(config, "r", {}, { ...opts, fetcher: answer(404) })).toMatchObject({ kind: "failed", errorCode: "adapter_failed" });
    expect(await invokeHttpAgent(config, "r", {}, { ...opts, fetcher: async () => Promise.reject(new TypeError("refused")) })).toMatchObject({
      kind: "failed",
      errorCode: "adapter_unreachable",
    });
  });

  it("sends JSON with the run id; config headers cannot override the service's", async () => {
    let seen: Request | undefined;
    await invokeHttpAgent(
      config,
      "run-1",
      { a: 1 },
      {
        exposure: "private",
        fetcher: (async (url: string, init: RequestInit) => ((seen = new Request(url, init)), new Response(null, { status: 200 }))) as typeof fetch,
      },
    );
    expect(seen!.headers.get("x-service-run-id")).toBe("run-1");
    expect(seen!.headers.get("content-type")).toBe("application/json");
    expect(seen!.headers.get("authorization")).toBeNull();
    expect(seen!.headers.get("x-team")).toBe("a");
    expect(await seen!.json()).toEqual({ a: 1 });
  });

  it("refuses private targets at run time when the service is public", async () => {
    const local = readHttpConfig({ url: "http://127.0.0.1:8080/wake" });
    const outcome = await invokeHttpAgent(local, "r", {}, { exposure: "public", fetcher: answer(200) });
    expect(outcome).toMatchObject({ kind: "failed", errorCode: "adapter_refused" });
  });

  it("reads Retry-After as seconds or an HTTP date, capped at an hour", () => {
    expect(retryAfterSeconds("30")).toBe(30);
    expect(retryAfterSeconds("999999")).toBe(3600);
    expect(retryAfterSeconds(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThan(55);
    expect(retryAfterSeconds("soon")).toBeNull();
    expect(retryAfterSeconds(null)).toBeNull();
  });

  it("backs off exponentially with jitter, capped", () => {
    expect(backoffSeconds(1, 0.5)).toBe(2);
    expect(backoffSeconds(3, 0.5)).toBe(8);
    expect(backoffSeconds(20, 0.5)).toBe(600);
    expect(backoffSeconds(3, 0)).toBe(6);
    expect(backoffSeconds(3, 1)).toBe(10);
  });
});

describe("decideWakeups", () => {
  const agent = (fields: Partial<DispatchAgent> = {}): DispatchAgent => ({
    id: "a",
    status: "idle",
    pauseReason: null,
    adapterType: "http",
    runtimeConfig: {},
    ...fields,
  });
  const wake = (id: string, issueId: string | null = null, agentId = "a") => ({ id, agentId, reason: "comment", issueId, context: null, createdAt: id });
  const facts = (a: DispatchAgent, extra: Partial<Parameters<typeof decideWakeups>[1]> = {}) => ({
    company: { status: "active", pauseReason: null },
    agents: new Map([[a.id, a]]),
    liveRuns: [],
    runsLastHour: new Map<string, number>(),
    ...extra,
  });
  let n = 0;
  const ids = () => `run-${++n}`;

  it("a budget stop wins over not invokable; an inactive company skips everything", () => {
    expect(decideWakeups([wake("w1")], facts(agent({ status: "paused", pauseReason: "budget" })), ids)[0]).toMatchObject({
      kind: "skip",
      reason: "budget.blocked",
    });
    expect(decideWakeups([wake("w1")], facts(agent({ status: "terminated" })), ids)[0]).toMatchObject({ kind: "skip", reason: "agent.not_invokable" });
    expect(decideWakeups([wake("w1")], facts(agent(), { company: { status: "archived", pauseReason: null } }), ids)[0]).toMatchObject({
      kind: "skip",
      reason: "company.inactive",
    });
  });

  it("the storm: 200 wakes in one second give at most the hourly limit of runs; the rest coalesce, wait or are skipped", () => {
    const a = agent({ runtimeConfig: { heartbeat: { maxConcurrentRuns: 50, maxRunsPerHour: 30 } } });
    const wakes = Array.from({ length: 200 }, (_, i) => wake(`w${i}`, `issue-${i % 60}`));
    const decisions = decideWakeups(wakes, facts(a), ids);
    const kinds = decisions.reduce<Record<string, number>>((acc, d) => ((acc[d.kind] = (acc[d.kind] ?? 0) + 1), acc), {});
    expect(kinds.start).toBe(30);
    expect(decisions).toHaveLength(200);
    expect((kinds.start ?? 0) + (kinds.coalesce ?? 0) + (kinds.skip ?? 0) + (kinds.wait ?? 0)).toBe(200);
    expect(decisions.filter((d) => d.kind === "skip").every((d) => d.kind === "skip" && d.reason === "rate_limited")).toBe(true);
  });

  it("maxConcurrentRuns: a second issue waits while the first runs", () => {
    const decisions = decideWakeups([wake("w1", "i1"), wake("w2", "i2"), wake("w3", "i1")], facts(agent()), ids);
    expect(decisions.map((d) => d.kind)).toEqual(["start", "wait", "coalesce"]);
  });
});

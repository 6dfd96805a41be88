// The runner's side of the protocol (src/cli/runner.ts) against a scripted fake service (a `ws`
// server): hello with instanceId, a run started and streamed, the connection dropped mid-run, the
// reconnect reclaiming the run and delivering its completion until confirmed; and a run the
// service does not give back after a reconnect being stopped; run.start acknowledged (run.started),
// a repeated one without a second process; a completion resent on the same connection until confirmed.
import { describe, expect, it } from "vitest";
import { alive } from "../helpers/processes";
import { WebSocketServer, type WebSocket } from "ws";
import type { AddressInfo } from "node:net";
import { startRunner } from "../../src/cli/runner";
import { eventually } from "../helpers/eventually";

interface FakeService {
  url: string;
  connections: Array<{ ws: WebSocket; received: any[] }>;
  next(index: number, match: (m: any) => boolean): Promise<any>;
  close(): Promise<void>;
}

async function fakeService(): Promise<FakeService> {
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const connections: FakeService["connections"] = [];
  server.on("connection", (ws, req) => {
    expect(req.headers.authorization).toBe("Bearer svc_agent_test");
    const entry = { ws, received: [] as any[] };
    connections.push(entry);
    ws.on("message", (data) => entry.received.push(JSON.parse(String(data))));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections,
    async next(index, match) {
      return eventually(() => connections[index]?.received.find(match), { what: `a matching message on connection ${index}` });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const runStart = (runId: string, script: string) => ({
  type: "run.start",
  version: 2,
  runId,
  agentId: "agent-1",
  companyId: "company-1",
  adapterType: "process",
  adapterConfig: { command: "sh", args: ["-c", script], graceSec: 0 },
  context: { issueId: null, wakeReason: "on_demand" },
  env: {},
  apiUrl: "http://127.0.0.1:1",
  apiToken: "jwt",
  skills: [],
  prompt: "",
  taskKey: "agent",
  session: null,
});

/** The log text of the run events in the messages (run.events batches). */
const logText = (received: any[]) =>
  received
    .filter((m) => m.type === "run.events")
    .flatMap((m) => m.events)
    .filter((e: any) => e.kind === "log")
    .map((e: any) => e.message)
    .join("");

describe("runner client", () => {
  it("a connection dropped mid-run: the reconnect reclaims the run and the completion is sent until confirmed", async () => {
    const service = await fakeService();
    const logs: string[] = [];
    const runner = startRunner({
      url: service.url,
      token: "svc_agent_test",
      companyId: "company-1",
      agents: ["agent-1"],
      name: "t",
      maxRuns: 1,
      log: (l) => logs.push(l),
    });
    const hello = await service.next(0, (m) => m.type === "hello");
    expect(hello).toMatchObject({ version: 2, agents: ["agent-1"], runs: [], instanceId: expect.any(String) });
    service.connections[0].ws.send(JSON.stringify({ type: "ready", version: 2, runnerId: "r1", agents: ["agent-1"], refused: [], runs: [] }));
    service.connections[0].ws.send(JSON.stringify(runStart("run-1", "echo first; sleep 1; echo done")));
    await eventually(() => logText(service.connections[0].received).includes("first"), { what: "the first output" });
    service.connections[0].ws.terminate();

    const again = await service.next(1, (m) => m.type === "hello");
    expect(again.instanceId).toBe(hello.instanceId);
    expect(again.runs).toEqual(["run-1"]);
    service.connections[1].ws.send(JSON.stringify({ type: "ready", version: 2, runnerId: "r2", agents: ["agent-1"], refused: [], runs: ["run-1"] }));
    const complete = await service.next(1, (m) => m.type === "run.complete");
    expect(complete).toMatchObject({ runId: "run-1", status: "succeeded", exitCode: 0, summary: "done" });
    // Not confirmed yet: the runner keeps going; confirmed: with --max-runs 1 it stops.
    service.connections[1].ws.send(JSON.stringify({ type: "run.completed", runId: "run-1" }));
    await runner.stopped;
    await service.close();
  });

  it("a run the service does not give back after a reconnect is stopped, and reports nothing", async () => {
    const service = await fakeService();
    const runner = startRunner({ url: service.url, token: "svc_agent_test", companyId: "company-1", agents: ["agent-1"], name: "t", log: () => {} });
    await service.next(0, (m) => m.type === "hello");
    service.connections[0].ws.send(JSON.stringify({ type: "ready", version: 2, runnerId: "r1", agents: ["agent-1"], refused: [], runs: [] }));
    const marker = `sleep 34.${process.pid}4`;
    service.connections[0].ws.send(JSON.stringify(runStart("run-2", `echo started; ${marker}`)));
    await service.next(0, (m) => m.type === "run.events");
    service.connections[0].ws.terminate();
    expect((await service.next(1, (m) => m.type === "hello")).runs).toEqual(["run-2"]);
    const started = Date.now();
    service.connections[1].ws.send(JSON.stringify({ type: "ready", version: 2, runnerId: "r2", agents: ["agent-1"], refused: [], runs: [] }));
    // Nothing must happen here: a quiet period is the only way to see "nothing was reported".
    await new Promise((r) => setTimeout(r, 1500));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(service.connections[1].received.filter((m) => m.type === "run.complete")).toEqual([]);
    expect(alive(marker)).toBe(false);
    runner.stop();
    await runner.stopped;
    await service.close();
  });

  it("acknowledges run.start with run.started; a repeated run.start is acknowledged again without a second process", async () => {
    const service = await fakeService();
    const runner = startRunner({
      url: service.url,
      token: "svc_agent_test",
      companyId: "company-1",
      agents: ["agent-1"],
      name: "t",
      maxRuns: 1,
      log: () => {},
    });
    await service.next(0, (m) => m.type === "hello");
    const ws = service.connections[0].ws;
    ws.send(JSON.stringify({ type: "ready", version: 2, runnerId: "r1", agents: ["agent-1"], refused: [], runs: [] }));
    ws.send(JSON.stringify(runStart("run-3", "echo begun; sleep 0.6; echo finished")));
    await service.next(0, (m) => m.type === "run.started" && m.runId === "run-3");
    // The service did not get the acknowledgement in time and sends the start again.
    ws.send(JSON.stringify(runStart("run-3", "echo begun; sleep 0.6; echo finished")));
    await eventually(() => service.connections[0].received.filter((m) => m.type === "run.started").length === 2);
    const complete = await service.next(0, (m) => m.type === "run.complete");
    expect(complete).toMatchObject({ runId: "run-3", status: "succeeded", summary: "finished" });
    const output = logText(service.connections[0].received);
    expect(output.match(/begun/g)).toHaveLength(1);
    // The acknowledgement comes before any output of the run.
    const kinds = service.connections[0].received.map((m) => m.type);
    expect(kinds.indexOf("run.started")).toBeLessThan(kinds.indexOf("run.events"));
    ws.send(JSON.stringify({ type: "run.completed", runId: "run-3" }));
    await runner.stopped;
    await service.close();
  });

  it("a completion the service could not record (retryable error), or does not confirm, is sent again on the same connection until confirmed", async () => {
    const service = await fakeService();
    const logs: string[] = [];
    const runner = startRunner({
      url: service.url,
      token: "svc_agent_test",
      companyId: "company-1",
      agents: ["agent-1"],
      name: "t",
      maxRuns: 1,
      retryMs: 150,
      log: (l) => logs.push(l),
    });
    await service.next(0, (m) => m.type === "hello");
    const ws = service.connections[0].ws;
    ws.send(JSON.stringify({ type: "ready", version: 2, runnerId: "r1", agents: ["agent-1"], refused: [], runs: [] }));
    ws.send(JSON.stringify(runStart("run-4", "echo ok")));
    const completions = () => service.connections[0].received.filter((m) => m.type === "run.complete");
    await eventually(() => completions().length === 1);
    ws.send(JSON.stringify({ type: "error", runId: "run-4", error: "The completion could not be recorded; send it again", retryable: true }));
    await eventually(() => completions().length === 2);
    // No answer at all this time: sent again after the (doubled) wait.
    await eventually(() => completions().length === 3);
    expect(completions().every((m) => m.runId === "run-4" && m.status === "succeeded")).toBe(true);
    ws.send(JSON.stringify({ type: "run.completed", runId: "run-4" }));
    await runner.stopped;
    expect(service.connections).toHaveLength(1); // never reconnected
    expect(logs.some((l) => l.includes("not confirmed yet; sending it again"))).toBe(true);
    await service.close();
  });

  it("answers env.test with the doctor's result for that runtime", async () => {
    const service = await fakeService();
    const runner = startRunner({ url: service.url, token: "svc_agent_test", companyId: "company-1", agents: ["agent-1"], name: "t", log: () => {} });
    await service.next(0, (m) => m.type === "hello");
    const ws = service.connections[0].ws;
    ws.send(JSON.stringify({ type: "ready", version: 2, runnerId: "r1", agents: ["agent-1"], refused: [], runs: [] }));
    ws.send(
      JSON.stringify({ type: "env.test", requestId: "q-1", adapterType: "claude_local", adapterConfig: { command: "/nonexistent/claude" }, probe: false }),
    );
    const result = await service.next(0, (m) => m.type === "env.test.result");
    expect(result).toMatchObject({
      requestId: "q-1",
      status: "fail",
      checks: [expect.anything(), expect.objectContaining({ code: "claude_command_missing", level: "error" })],
    });
    runner.stop();
    await runner.stopped;
    await service.close();
  });
});

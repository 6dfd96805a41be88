// The adapter registry and each adapter's config reader, straight at the modules: where each
// type's runs execute (agreeing with the runner protocol the CLI uses), and a stored config read
// through the schema that validated it, with the adapter's defaults for what is left out.
import { describe, expect, it } from "vitest";
import { adapterDefinitions, adapterOf, adapterTypes, findAdapter, typesWhere, validateAdapterConfig } from "../../src/adapters";
import { readHttpConfig } from "../../src/adapters/http/config";
import { readGatewayConfig } from "../../src/adapters/remote-gateway/config";
import { readRunnerConfig } from "../../src/adapters/runner";
import { isRunnerAdapter } from "../../src/protocol/runner";

describe("adapter registry", () => {
  it("says where each type's runs execute: http in the object, remote_gateway in a gateway object, llm_api in a loop object, the rest on runners", () => {
    expect(typesWhere("object")).toEqual(["http"]);
    expect(typesWhere("gateway")).toEqual(["remote_gateway"]);
    expect(typesWhere("loop")).toEqual(["llm_api"]);
    expect(typesWhere("runner")).toEqual(["process", "claude_local", "codex_local", "gemini_local", "opencode_local", "cursor_local", "pi_local"]);
    expect([...typesWhere("object", "gateway", "loop", "runner")].sort()).toEqual([...adapterTypes].sort());
  });

  it("agrees with the runner protocol (what the CLI serves) on which types runners execute", () => {
    for (const { type, where } of adapterDefinitions) expect(isRunnerAdapter(type), type).toBe(where === "runner");
  });

  it("an unknown stored type is an error, not a guess at where it runs", () => {
    expect(findAdapter("smoke_signals")).toBeNull();
    expect(() => adapterOf("smoke_signals")).toThrow(/Unknown adapterType/);
  });
});

describe("a stored config is read through its schema", () => {
  it("http: left-out fields read as the defaults; reserved headers are dropped", () => {
    const stored = validateAdapterConfig(
      "http",
      { url: "https://agents.example.com/wake", headers: { Authorization: "x", "X-Team": "a" } },
      { creating: true },
    );
    expect(readHttpConfig(stored)).toEqual({
      url: "https://agents.example.com/wake",
      method: "POST",
      headers: { "X-Team": "a" },
      payloadTemplate: {},
      timeoutSec: 30,
      completionTimeoutSec: 1800,
    });
    expect(readHttpConfig({ url: "https://a.example/x", method: "PUT", timeoutSec: 5, completionTimeoutSec: 60, payloadTemplate: { k: 1 } })).toMatchObject({
      method: "PUT",
      timeoutSec: 5,
      completionTimeoutSec: 60,
      payloadTemplate: { k: 1 },
    });
  });

  it("http: a field the schema would not accept (a row written by hand) reads as its default", () => {
    expect(readHttpConfig({})).toMatchObject({ url: "", method: "POST", timeoutSec: 30 });
    expect(readHttpConfig({ url: "https://a.example/x", method: "BREW", timeoutSec: -1, headers: "nope" })).toMatchObject({
      method: "POST",
      timeoutSec: 30,
      headers: {},
    });
  });

  it("remote_gateway: what create stores reads with the defaults it wrote; protected headers, empty instructions and trailing slashes go", () => {
    const stored = validateAdapterConfig("remote_gateway", { apiBaseUrl: "https://gw.example.com/chat/abc", apiKey: "k-1234567890" }, { creating: true });
    expect(stored).toMatchObject({ apiBaseUrl: "https://gw.example.com/api", sessionKeyStrategy: "issue", timeoutSec: 600, eventReconnectMs: 2000 });
    expect(readGatewayConfig(stored)).toEqual({
      apiBaseUrl: "https://gw.example.com/api",
      sessionKeyStrategy: "issue",
      timeoutSec: 600,
      eventReconnectMs: 2000,
      paperclipApiUrl: null,
      headers: {},
      instructions: null,
    });
    expect(
      readGatewayConfig({
        apiBaseUrl: "https://gw.example.com/api//",
        sessionKeyStrategy: "run",
        timeoutSec: 0,
        headers: { Cookie: "c", "X-A": "1" },
        instructions: "",
      }),
    ).toEqual({
      apiBaseUrl: "https://gw.example.com/api",
      sessionKeyStrategy: "run",
      timeoutSec: 600,
      eventReconnectMs: 2000,
      paperclipApiUrl: null,
      headers: { "X-A": "1" },
      instructions: null,
    });
  });

  it("runner adapters: the service reads the timeout, 0 (none) when left out or unreadable", () => {
    expect(readRunnerConfig({ command: "x", timeoutSec: 90 })).toEqual({ timeoutSec: 90 });
    expect(readRunnerConfig({ command: "x" })).toEqual({ timeoutSec: 0 });
    expect(readRunnerConfig({ timeoutSec: "5" })).toEqual({ timeoutSec: 0 });
  });
});

// The one host classifier (src/net/hosts.ts), with the cases of both classifiers it replaces: the
// outbound target check (agent endpoints, gateways, webhooks) and the environment probes.
import { describe, expect, it } from "vitest";
import { classifyHost, isPrivateTarget } from "../../src/net/hosts";

describe("host classification", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["localhost", "loopback"],
    ["api.localhost", "loopback"],
    ["[::1]", "loopback"],
    ["::1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.20.0.1", "private"],
    ["192.168.1.10", "private"],
    ["100.64.0.1", "private"],
    ["fd00::1", "private"],
    ["buildbox", "private"],
    ["db.internal", "private"],
    ["printer.local", "private"],
    ["nas.lan", "private"],
    ["169.254.169.254", "link_local"],
    ["fe80::1", "link_local"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:a00:1", "private"],
    ["::7f00:1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "link_local"],
    ["64:ff9b::10.0.0.1", "private"],
    ["8.8.8.8", "public"],
    ["172.32.0.1", "public"],
    ["192.169.0.1", "public"],
    ["2001:db8::1", "public"],
    ["::ffff:808:808", "public"],
    ["build.example.com", "public"],
    ["not a host", "invalid"],
    ["999.1.1.1", "invalid"],
    ["1.2.3", "invalid"],
    ["224.0.0.1", "invalid"],
    ["", "invalid"],
  ])("%s is %s", (host, expected) => {
    expect(classifyHost(host)).toBe(expected);
  });

  it("a private target is anything but a public host, in the forms URL parsing writes", () => {
    for (const host of ["[::ffff:7f00:1]", "::ffff:a00:1", "::7f00:1", "64:ff9b::a9fe:a9fe"].map(
      (h) => new URL(`http://${h.startsWith("[") ? h : `[${h}]`}`).hostname,
    ))
      expect(isPrivateTarget(host), host).toBe(true);
    for (const host of ["localhost", "api.internal", "metadata", "169.254.169.254", "[::1]", "224.0.0.1"]) expect(isPrivateTarget(host), host).toBe(true);
    for (const host of ["agents.example.com", "8.8.8.8", "2001:db8::1"]) expect(isPrivateTarget(host), host).toBe(false);
  });
});

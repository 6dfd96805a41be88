// The company Durable Object's command registry: every command has a unique name.
import { expect, it } from "vitest";
import { buildCommandRegistry, commandLists, commandRegistry } from "../../src/company/commands";
import { defineCommand } from "../../src/company/command";

it("every listed command is registered under its own name", () => {
  const listed = commandLists.flat();
  expect(commandRegistry.size).toBe(listed.length);
  for (const command of listed) expect(commandRegistry.get(command.name)).toBe(command);
});

it("a duplicate name refuses to build the registry", () => {
  const a = defineCommand("thing.do", async () => 1);
  const b = defineCommand("thing.do", async () => 2);
  expect(() => buildCommandRegistry([[a], [b]])).toThrow("Duplicate company command name: thing.do");
});

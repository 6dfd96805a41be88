// The company Durable Object's command registry: no area may shadow another's command name.
import { expect, it } from "vitest";
import { commandAreas, companyCommands } from "../../src/company/commands";

it("command names are unique across areas and all registered", () => {
  const seen = new Map<string, string>();
  const clashes: string[] = [];
  for (const [area, commands] of Object.entries(commandAreas)) {
    for (const name of Object.keys(commands)) {
      if (seen.has(name)) clashes.push(`${name} (${seen.get(name)} and ${area})`);
      seen.set(name, area);
    }
  }
  expect(clashes).toEqual([]);
  expect(Object.keys(companyCommands).sort()).toEqual([...seen.keys()].sort());
});

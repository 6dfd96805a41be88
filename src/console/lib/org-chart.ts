// The org chart from each agent's `reportsTo` (pure): a forest whose roots report to the board (or
// to an agent not listed, e.g. terminated). A reporting cycle, which the service refuses, would
// still show every agent once. `managerChoices` lists whom an agent may report to.

export interface OrgNode<T> {
  agent: T;
  reports: OrgNode<T>[];
}

export function orgChart<T extends { id: string; reportsTo: string | null; name: string }>(agents: T[]): OrgNode<T>[] {
  const byId = new Map(agents.map((a) => [a.id, a]));
  const children = new Map<string, T[]>();
  const roots: T[] = [];
  for (const agent of agents) {
    if (agent.reportsTo && agent.reportsTo !== agent.id && byId.has(agent.reportsTo)) {
      children.set(agent.reportsTo, [...(children.get(agent.reportsTo) ?? []), agent]);
    } else roots.push(agent);
  }
  const placed = new Set<string>();
  const byName = (a: T, b: T) => a.name.localeCompare(b.name);
  const build = (agent: T): OrgNode<T> => {
    placed.add(agent.id);
    const reports = (children.get(agent.id) ?? []).filter((c) => !placed.has(c.id)).sort(byName);
    return { agent, reports: reports.map(build) };
  };
  const forest = roots.sort(byName).map(build);
  // Agents only reachable through a cycle: shown at the top rather than lost.
  for (const agent of [...agents].sort(byName)) if (!placed.has(agent.id)) forest.push(build(agent));
  return forest;
}

/** Who `agentId` may report to: any listed agent but itself and those under it (that would be a cycle), by name. */
export function managerChoices<T extends { id: string; reportsTo: string | null; name: string }>(agents: T[], agentId: string): T[] {
  const under = new Set([agentId]);
  // Walk down from the agent until no one new reports to someone already found.
  for (let grew = true; grew; ) {
    grew = false;
    for (const a of agents) {
      if (a.reportsTo && under.has(a.reportsTo) && !under.has(a.id)) {
        under.add(a.id);
        grew = true;
      }
    }
  }
  return agents.filter((a) => !under.has(a.id)).sort((a, b) => a.name.localeCompare(b.name));
}

// Goals as a tree by `parentId` (pure): top-level goals first, each with its sub-goals; a goal whose
// parent is not listed is top-level.

export interface GoalNode<T> {
  goal: T;
  children: GoalNode<T>[];
}

export function goalTree<T extends { id: string; parentId: string | null }>(goals: T[]): GoalNode<T>[] {
  const ids = new Set(goals.map((g) => g.id));
  const placed = new Set<string>();
  const build = (goal: T): GoalNode<T> => {
    placed.add(goal.id);
    return { goal, children: goals.filter((g) => g.parentId === goal.id && !placed.has(g.id)).map(build) };
  };
  const roots = goals.filter((g) => !g.parentId || !ids.has(g.parentId) || g.parentId === g.id).map(build);
  for (const goal of goals) if (!placed.has(goal.id)) roots.push(build(goal));
  return roots;
}

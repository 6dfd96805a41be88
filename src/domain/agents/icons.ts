// Icons an agent may carry (`icon`); listed by /api/llms/agent-icons.txt.
export const AGENT_ICONS = [
  { name: "bot", use: "general-purpose agent" },
  { name: "crown", use: "CEO or company lead" },
  { name: "briefcase", use: "operations, management" },
  { name: "code", use: "software engineer" },
  { name: "terminal", use: "devops, infrastructure" },
  { name: "bug", use: "QA, testing" },
  { name: "shield", use: "security" },
  { name: "database", use: "data engineering" },
  { name: "chart", use: "analytics, finance" },
  { name: "search", use: "research" },
  { name: "pen", use: "writing, documentation" },
  { name: "palette", use: "design" },
  { name: "megaphone", use: "marketing" },
  { name: "mail", use: "support, communications" },
  { name: "globe", use: "sales, partnerships" },
  { name: "rocket", use: "product, launches" },
  { name: "brain", use: "strategy, planning" },
  { name: "wrench", use: "maintenance, tooling" },
  { name: "sparkles", use: "creative, experiments" },
  { name: "cpu", use: "machine learning" },
] as const;

export const agentIconNames = AGENT_ICONS.map((i) => i.name) as unknown as [string, ...string[]];

// Every table, for drizzle's typed client.
export * from "./auth";
export * from "./companies";
export * from "./agents";
export * from "./activity";
export * from "./budgets";
export * from "./assets";
export * from "./issues";
export * from "./instance";
export * from "./goals-projects";
export * from "./secrets";
export * from "./approvals";
export * from "./runs";
export * from "./issues-extra";
export * from "./costs";
export * from "./projects-extra";
export * from "./access";
export * from "./documents";

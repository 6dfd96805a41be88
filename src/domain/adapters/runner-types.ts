// Which adapter types runners execute (the rest run at the edge). No imports: the CLI bundles it.
export const isRunnerAdapter = (adapterType: string) => adapterType === "process" || adapterType.endsWith("_local");

// Which adapter types runners execute: defined with the runner protocol (src/protocol/runner.ts).
export { isRunnerAdapter } from "../../protocol/runner";

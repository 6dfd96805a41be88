// The runtime drivers of the `<runtime>_local` adapters, by runtime.
import type { LocalRuntime } from "../../protocol/local-runtimes";
import { claudeDriver } from "./claude";
import { codexDriver } from "./codex";
import { cursorDriver } from "./cursor";
import { geminiDriver } from "./gemini";
import { opencodeDriver } from "./opencode";
import { piDriver } from "./pi";
import type { RuntimeDriver } from "./types";

export const RUNTIME_DRIVERS: Record<LocalRuntime, RuntimeDriver> = {
  claude: claudeDriver,
  codex: codexDriver,
  gemini: geminiDriver,
  opencode: opencodeDriver,
  cursor: cursorDriver,
  pi: piDriver,
};

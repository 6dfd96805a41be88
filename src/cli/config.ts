// Where the CLI keeps its sign-in: `config.json` in the user's config directory
// ($ACP_CONFIG_DIR, else $XDG_CONFIG_HOME/acp, else ~/.config/acp), written 0600 in a 0700 directory.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

export interface CliConfig {
  url?: string;
  token?: string;
  keyId?: string;
  companyId?: string;
}

export function configDir(): string {
  if (process.env.ACP_CONFIG_DIR) return process.env.ACP_CONFIG_DIR;
  return path.join(process.env.XDG_CONFIG_HOME || path.join(homedir(), ".config"), "acp");
}

export const configPath = () => path.join(configDir(), "config.json");

export function loadConfig(): CliConfig {
  try {
    return JSON.parse(readFileSync(configPath(), "utf8")) as CliConfig;
  } catch {
    return {};
  }
}

export function saveConfig(config: CliConfig): void {
  const dir = configDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(configPath(), JSON.stringify(config, null, 2) + "\n", { mode: 0o600 });
  chmodSync(configPath(), 0o600);
}

export function clearToken(): void {
  const { token: _token, keyId: _keyId, ...rest } = loadConfig();
  if (Object.keys(rest).length) saveConfig(rest);
  else if (existsSync(configPath())) rmSync(configPath());
}

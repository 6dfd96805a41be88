// Plugin status transitions as one table (the incumbent's): installed → ready | error;
// ready → disabled | error | upgrade_pending; disabled | error | upgrade_pending → ready; any → uninstalled.
import type { PLUGIN_STATUSES } from "../../db/schema/plugins";
import { conflict } from "../errors";

export type PluginStatus = (typeof PLUGIN_STATUSES)[number];

export const PLUGIN_TRANSITIONS: Record<PluginStatus, readonly PluginStatus[]> = {
  installed: ["ready", "error"],
  ready: ["disabled", "error", "upgrade_pending"],
  disabled: ["ready"],
  error: ["ready"],
  upgrade_pending: ["ready", "error"],
};

export const canTransition = (from: PluginStatus, to: PluginStatus) => PLUGIN_TRANSITIONS[from].includes(to);

/** 409 unless `from → to` is allowed. */
export function requireTransition(pluginKey: string, from: PluginStatus, to: PluginStatus) {
  if (!canTransition(from, to)) {
    throw conflict(`Plugin ${pluginKey} cannot go from ${from} to ${to}`, { pluginKey, status: from, allowed: PLUGIN_TRANSITIONS[from] });
  }
}

// Whether the knowledge wiki (an instance-wide plugin) is ready: the company navigation links its
// pages only then. Read when a company opens and again on plugin events (announced to every company).
import { signal } from "@preact/signals";
import { api, call } from "./api";
import { subscribe } from "./live";

export const WIKI_PLUGIN = "knowledge-wiki";
export const wikiReady = signal(false);

async function loadWikiStatus() {
  try {
    const plugin = await call(api.GET("/api/plugins/{pluginId}", { params: { path: { pluginId: WIKI_PLUGIN } } }));
    wikiReady.value = plugin.status === "ready";
  } catch {
    // Not installed (404), or not readable: not linked.
    wikiReady.value = false;
  }
}

export function followPlugins(): () => void {
  void loadWikiStatus();
  return subscribe(["plugin.*"], () => void loadWikiStatus());
}

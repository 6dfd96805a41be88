// The first-party plugins this build ships (the only ones `install` accepts).
import type { PluginDefinition } from "./definition";
import { knowledgeWikiPlugin } from "../wiki/plugin";

export const SHIPPED_PLUGINS: readonly PluginDefinition[] = [knowledgeWikiPlugin];

/** A shipped plugin by key or package name. */
export const shippedPlugin = (keyOrPackage: string) => SHIPPED_PLUGINS.find((p) => p.key === keyOrPackage || p.packageName === keyOrPackage) ?? null;

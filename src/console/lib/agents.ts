// The open company's agents (not terminated), shared by every page that names or picks an agent;
// kept current by agent and run events.
import { signal } from "@preact/signals";
import { api, call, type Schemas } from "./api";
import { subscribe } from "./live";

export type Agent = Schemas["Agent"];

export const agents = signal<{ companyId: string; list: Agent[] } | undefined>(undefined);
export const agentsError = signal<string | null>(null);

export async function loadAgents(companyId: string) {
  try {
    const list = await call(api.GET("/api/companies/{companyId}/agents", { params: { path: { companyId } } }));
    agents.value = { companyId, list };
    agentsError.value = null;
  } catch (err) {
    agentsError.value = (err as Error).message;
  }
}

export function followAgents(companyId: string): () => void {
  if (agents.value?.companyId !== companyId) agents.value = undefined;
  void loadAgents(companyId);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unsubscribe = subscribe(["agent.*", "run.started", "run.finished"], () => {
    clearTimeout(timer);
    timer = setTimeout(() => void loadAgents(companyId), 120);
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}

/** An agent's name by id ("Unknown agent" when not listed, e.g. terminated). */
export function agentName(id: string | null | undefined): string {
  if (!id) return "Unassigned";
  return agents.value?.list.find((a) => a.id === id)?.name ?? "Unknown agent";
}

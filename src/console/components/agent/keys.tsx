// An agent's API keys: the ones created so far (read from its activity: the API lists none), and a
// form that creates one and shows its token once.
import { useState } from "preact/hooks";
import { api, call, type Schemas } from "../../lib/api";
import type { Company } from "../../lib/companies";
import { label } from "../../lib/enums";
import { ago, when } from "../../lib/format";
import { activityEntries } from "../../lib/activity";
import { useResource } from "../../lib/resource";
import { Feedback, useAction } from "../action";
import { TextField } from "../fields";
import { ShownOnce } from "../shown-once";
import { Async } from "../states";

export function KeysSection({ agent, company }: { agent: Schemas["Agent"]; company: Company }) {
  const action = useAction();
  const [name, setName] = useState("");
  const [token, setToken] = useState<string | null>(null);
  // The API lists no keys: the ones created so far are read from the agent's activity.
  const created = useResource(
    async () =>
      activityEntries(
        await call(
          api.GET("/api/companies/{companyId}/activity", { params: { path: { companyId: company.id }, query: { entityType: "agent", entityId: agent.id } } }),
        ),
      ).filter((entry) => entry.action === "agent.key_created"),
    [company.id, agent.id],
  );
  const create = async (event: Event) => {
    event.preventDefault();
    const key = await action.run(
      () => call(api.POST("/api/agents/{agentId}/keys", { params: { path: { agentId: agent.id } }, body: name.trim() ? { name: name.trim() } : {} })),
      (k) => `Key ${k.name ?? "(unnamed)"} created.`,
    );
    if (key) {
      setToken(key.token);
      setName("");
      void created.reload();
    }
  };
  const usable = agent.status !== "terminated" && agent.status !== "pending_approval";
  return (
    <section aria-labelledby="agent-keys">
      <h2 id="agent-keys">API keys</h2>
      <p class="meta">An agent calls the API with its key (Authorization: Bearer …). A key's token is shown once, when it is created.</p>
      <Async resource={created} what="keys" empty="No keys created yet.">
        {(entries) => (
          <ul class="rows">
            {entries.map((entry) => (
              <li key={entry.id}>
                {typeof entry.details?.name === "string" ? entry.details.name : "Unnamed key"}{" "}
                <span class="meta">
                  created{" "}
                  <time dateTime={entry.createdAt} title={when(entry.createdAt)}>
                    {ago(entry.createdAt)}
                  </time>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Async>
      {token && <ShownOnce label="API key token" value={token} onClose={() => setToken(null)} />}
      {usable ? (
        <form class="inline-form" onSubmit={create}>
          <TextField label="Key name" maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} hint="Optional, e.g. where it is used." />
          <button type="submit" disabled={action.busy}>
            Create key
          </button>
        </form>
      ) : (
        <p class="empty">Keys cannot be created for an agent that is {label(agent.status).toLowerCase()}.</p>
      )}
      <Feedback action={action} />
    </section>
  );
}

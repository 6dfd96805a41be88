// An agent's API keys (GET /api/agents/{id}/keys): name, the token's first characters (keys made
// before prefixes were recorded have none), created, last used, revoked; Revoke (asked first: it
// cannot be undone) and a form that creates one and shows its token once. Follows agent_key events.
import { useState } from "preact/hooks";
import { api, call, type Schemas } from "../../lib/api";
import { label } from "../../lib/enums";
import { ago, when } from "../../lib/format";
import { useResource } from "../../lib/resource";
import { Feedback, useAction } from "../action";
import { TextField } from "../fields";
import { ShownOnce } from "../shown-once";
import { Async } from "../states";

type AgentKey = Schemas["AgentApiKey"];

function Time({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={when(iso)}>
      {ago(iso)}
    </time>
  );
}

export function KeysSection({ agent }: { agent: Schemas["Agent"] }) {
  const action = useAction();
  const [name, setName] = useState("");
  const [token, setToken] = useState<string | null>(null);
  const keys = useResource(() => call(api.GET("/api/agents/{agentId}/keys", { params: { path: { agentId: agent.id } } })), [agent.id], {
    types: ["agent_key.*"],
    when: (event) => (event.data as { agentId?: string } | undefined)?.agentId === agent.id,
  });
  const create = async (event: Event) => {
    event.preventDefault();
    const key = await action.run(
      () => call(api.POST("/api/agents/{agentId}/keys", { params: { path: { agentId: agent.id } }, body: name.trim() ? { name: name.trim() } : {} })),
      (k) => `Key ${k.name ?? "(unnamed)"} created.`,
    );
    if (key) {
      setToken(key.token);
      setName("");
      void keys.reload();
    }
  };
  const revoke = async (key: AgentKey) => {
    const keyName = key.name ?? "the unnamed key";
    const revoked = await action.run(
      () => call(api.DELETE("/api/agents/{agentId}/keys/{keyId}", { params: { path: { agentId: agent.id, keyId: key.id } } })),
      `Key ${keyName} revoked: it no longer works (within seconds everywhere).`,
      {
        confirm: {
          question: `Revoke ${keyName}? Whatever uses it loses access, and it cannot be used again.`,
          yes: `Revoke ${keyName}`,
          no: "Keep the key",
        },
      },
    );
    if (revoked) void keys.reload();
  };
  const usable = agent.status !== "terminated" && agent.status !== "pending_approval";
  return (
    <section aria-labelledby="agent-keys">
      <h2 id="agent-keys">API keys</h2>
      <p class="meta">An agent calls the API with its key (Authorization: Bearer …). A key's token is shown once, when it is created.</p>
      <Async resource={keys} what="keys" empty="No keys yet.">
        {(list) => (
          <ul class="rows keys" aria-label="Keys">
            {list.map((key) => (
              <li key={key.id}>
                <strong>{key.name ?? "Unnamed key"}</strong>{" "}
                {key.tokenPrefix ? <code>{key.tokenPrefix}…</code> : <span class="meta">(made before prefixes were kept)</span>}{" "}
                {key.revokedAt && <span class="badge status-cancelled">Revoked</span>}{" "}
                <span class="meta">
                  created <Time iso={key.createdAt} /> ·{" "}
                  {key.lastUsedAt ? (
                    <>
                      last used <Time iso={key.lastUsedAt} />
                    </>
                  ) : (
                    "never used"
                  )}
                  {key.revokedAt && (
                    <>
                      {" "}
                      · revoked <Time iso={key.revokedAt} />
                    </>
                  )}
                </span>{" "}
                {!key.revokedAt && (
                  <button type="button" class="danger" disabled={action.busy} onClick={() => void revoke(key)}>
                    Revoke<span class="visually-hidden"> {key.name ?? "the unnamed key"}</span>
                  </button>
                )}
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

// An agent's configuration: adapter, heartbeat, skills and the adapter's settings, with secrets only
// as references to company secrets (never their values).
import { api, call, type Schemas } from "../../lib/api";
import { type Company, companyPath } from "../../lib/companies";
import { type ConfigRow, configRows } from "../../lib/config-view";
import { useResource } from "../../lib/resource";

export function ConfigurationSection({ agent, company }: { agent: Schemas["Agent"]; company: Company }) {
  const secrets = useResource(() => call(api.GET("/api/companies/{companyId}/secrets", { params: { path: { companyId: company.id } } })), [company.id]);
  const secretName = (id: string) => secrets.data?.find((s) => s.id === id)?.name;
  const heartbeat = (agent.runtimeConfig?.heartbeat ?? {}) as { enabled?: boolean; intervalSec?: number };
  return (
    <section aria-labelledby="agent-config">
      <h2 id="agent-config">Configuration</h2>
      {agent.configRedacted ? (
        <p class="empty">You may not read this agent's configuration.</p>
      ) : (
        <>
          <dl class="facts">
            <dt>Adapter</dt>
            <dd>{agent.adapterType}</dd>
            <dt>Heartbeat</dt>
            <dd>{heartbeat.enabled ? `every ${heartbeat.intervalSec ?? "?"} s` : "off (woken by work only)"}</dd>
            {agent.desiredSkills.length > 0 && (
              <>
                <dt>Skills</dt>
                <dd>{agent.desiredSkills.join(", ")}</dd>
              </>
            )}
          </dl>
          <ConfigTable title="Adapter configuration" rows={configRows(agent.adapterConfig)} secretName={secretName} company={company} />
          <p class="meta">Secrets appear only as references to company secrets; their values are never shown here.</p>
        </>
      )}
    </section>
  );
}

function ConfigTable({
  title,
  rows,
  secretName,
  company,
}: {
  title: string;
  rows: ConfigRow[];
  secretName: (id: string) => string | undefined;
  company: Company;
}) {
  if (rows.length === 0) return <p class="empty">No {title.toLowerCase()}.</p>;
  return (
    <table class="table config">
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">Setting</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.path}>
            <th scope="row" class="mono">
              {row.path}
            </th>
            <td>
              {row.value.kind === "secret" ? (
                <span class="secret-ref">
                  Secret <a href={companyPath(company, "settings/secrets")}>{secretName(row.value.secretId) ?? row.value.secretId}</a>, version{" "}
                  {row.value.version}
                </span>
              ) : row.value.kind === "hidden" ? (
                <span class="meta">Hidden (secret-like setting)</span>
              ) : row.value.kind === "empty" ? (
                <span class="meta">Not set</span>
              ) : (
                <span class="mono">{row.value.text}</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

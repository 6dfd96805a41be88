// The company's secrets as metadata only — name, provider, latest version, description, when it
// changed. Values are never shown (the API never returns them); agents and projects refer to a
// secret by reference, and their pages show the reference.
import { SettingsNav } from "../components/settings-nav";
import { Async } from "../components/states";
import { api, call } from "../lib/api";
import { ago, when } from "../lib/format";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

export default function SecretsPage({ company }: CompanyPageProps) {
  useTitle("Secrets");
  const path = { companyId: company.id };
  const secrets = useResource(() => call(api.GET("/api/companies/{companyId}/secrets", { params: { path } })), [company.id], { types: ["agent.*"] });
  const providers = useResource(() => call(api.GET("/api/companies/{companyId}/secret-providers", { params: { path } })), [company.id]);
  const providerLabel = (id: string) => providers.data?.find((p) => p.id === id)?.label ?? id;
  return (
    <>
      <h1 tabIndex={-1}>Secrets</h1>
      <SettingsNav company={company} />
      <p class="meta">
        Metadata only: a secret's value is never shown. A raw secret given in an agent's or a project's environment is stored here and replaced by a reference
        to it.
      </p>
      <Async resource={secrets} what="secrets" empty="No secrets yet.">
        {(list) => (
          <div class="table-wrap">
            <table class="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Provider</th>
                  <th scope="col" class="num">
                    Version
                  </th>
                  <th scope="col">Changed</th>
                </tr>
              </thead>
              <tbody>
                {list.map((s) => (
                  <tr key={s.id}>
                    <th scope="row">
                      <span class="mono">{s.name}</span>
                      {s.description && <div class="meta">{s.description}</div>}
                    </th>
                    <td>
                      {providerLabel(s.provider)}
                      {s.externalRef && <div class="meta mono">{s.externalRef}</div>}
                    </td>
                    <td class="num">{s.latestVersion}</td>
                    <td>
                      <time dateTime={s.updatedAt} title={when(s.updatedAt)}>
                        {ago(s.updatedAt)}
                      </time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Async>
    </>
  );
}

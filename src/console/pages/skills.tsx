// The company's skills: its library (bundled, from the catalog, imported, made here — each with its
// source, trust level and audit, and Audit to run it again with its findings), the shipped catalog
// (Install for an optional skill) and an import from a URL. Which skills an agent has is chosen on
// the agent's page. No event announces a library change: the page reloads after its own changes and
// on a resync.
import { SkillCatalog } from "../components/skills/catalog";
import { SkillImport } from "../components/skills/import-form";
import { SkillLibrary } from "../components/skills/library";
import { Async } from "../components/states";
import { api, call } from "../lib/api";
import { companyPath } from "../lib/companies";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";

export default function SkillsPage({ company }: CompanyPageProps) {
  useTitle("Skills");
  const path = { companyId: company.id };
  const library = useResource(() => call(api.GET("/api/companies/{companyId}/skills", { params: { path } })), [company.id], { types: [] });
  const catalog = useResource(() => call(api.GET("/api/skills/catalog")), []);
  const reload = () => void library.reload();
  const installed = new Set((library.data ?? []).map((s) => s.key));
  return (
    <>
      <h1 tabIndex={-1}>Skills</h1>
      <p class="meta">
        Skills are instructions (and sometimes scripts) given to agents with each run. Choose an agent's skills on{" "}
        <a href={companyPath(company, "agents")}>its page</a>.
      </p>
      <section aria-labelledby="skills-library">
        <h2 id="skills-library">Library{library.data ? ` (${library.data.length})` : ""}</h2>
        <Async resource={library} what="the library" empty="The library is empty.">
          {(skills) => <SkillLibrary skills={skills} companyId={company.id} onChanged={reload} />}
        </Async>
      </section>
      <section aria-labelledby="skills-catalog">
        <h2 id="skills-catalog">Catalog</h2>
        <p class="meta">The skills shipped with the service. Bundled ones are in every library; install an optional one to offer it to agents.</p>
        <Async resource={catalog} what="the catalog" empty="The catalog is empty.">
          {(entries) => <SkillCatalog entries={entries} installedKeys={installed} companyId={company.id} onInstalled={reload} />}
        </Async>
      </section>
      <section aria-labelledby="skills-import">
        <h2 id="skills-import">Import from a URL</h2>
        <SkillImport companyId={company.id} onImported={reload} />
      </section>
    </>
  );
}

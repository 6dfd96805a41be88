// The company picker: the companies the board user can open, and a form to create one. At `/`
// the remembered company opens straight away; /companies always shows the list.
import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso/router";
import { Redirect } from "../components/redirect";
import { TextField } from "../components/fields";
import { Layout } from "../components/layout";
import { Async } from "../components/states";
import { api, call, messageOf } from "../lib/api";
import { type Company, companyPath, loadCompanies, rememberedCompanyId } from "../lib/companies";
import { closeCompany } from "../lib/follow";
import { money } from "../lib/format";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";
import type { PageProps } from "../routes";

export default function CompaniesPage({ path }: PageProps) {
  useTitle("Companies", false);
  useEffect(() => closeCompany(), []);
  const list = useResource(loadCompanies, []);
  const remembered = rememberedCompanyId();
  const open = path === "/" && remembered ? list.data?.find((c) => c.id === remembered) : undefined;
  if (open) return <Redirect to={companyPath(open, "dashboard")} />;
  return (
    <Layout>
      <h1 tabIndex={-1}>Companies</h1>
      <Async resource={list} what="companies" empty="You have no companies yet. Create the first one below.">
        {(companies) => (
          <ul class="cards">
            {companies.map((c) => (
              <CompanyCard key={c.id} company={c} />
            ))}
          </ul>
        )}
      </Async>
      <NewCompany />
    </Layout>
  );
}

function CompanyCard({ company }: { company: Company }) {
  return (
    <li class="card">
      <h2>
        <a href={companyPath(company, "dashboard")}>{company.name}</a>
      </h2>
      <p class="meta">
        {company.issuePrefix} · {company.status} · {money(company.spentMonthlyCents)} of {money(company.budgetMonthlyCents)} this month
      </p>
      {company.description && <p>{company.description}</p>}
    </li>
  );
}

function NewCompany() {
  const { route } = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const budget = Number(form.get("budget") || 0);
    setBusy(true);
    setError(null);
    try {
      const company = await call(api.POST("/api/companies", { body: { name: String(form.get("name")), budgetMonthlyCents: Math.round(budget * 100) } }));
      await loadCompanies();
      route(companyPath(company, "dashboard"));
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="new-company">
      <h2 id="new-company">New company</h2>
      <form onSubmit={submit} class="stack narrow-form">
        <TextField label="Company name" name="name" required maxLength={200} />
        <TextField label="Monthly budget (USD)" name="budget" type="number" min={0} step="0.01" inputMode="decimal" />
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Create company
        </button>
      </form>
    </section>
  );
}

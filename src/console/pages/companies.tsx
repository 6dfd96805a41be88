// The company picker: the companies the board user can open, and a form to create one. At `/`
// the remembered company opens straight away; /companies always shows the list.
import { useEffect } from "preact/hooks";
import { useLocation } from "preact-iso/router";
import { Submit, useAction } from "../components/action";
import { TextField } from "../components/fields";
import { Layout } from "../components/layout";
import { Redirect } from "../components/redirect";
import { Async } from "../components/states";
import { api, call } from "../lib/api";
import { type Company, companyPath, loadCompanies, rememberedCompanyId } from "../lib/companies";
import { closeCompany } from "../lib/follow";
import { submittedForm } from "../lib/form";
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
  const action = useAction();
  const submit = async (event: Event) => {
    const { text } = submittedForm(event);
    const budget = Number(text("budget") || 0);
    const company = await action.run(async () => {
      const created = await call(api.POST("/api/companies", { body: { name: text("name"), budgetMonthlyCents: Math.round(budget * 100) } }));
      await loadCompanies();
      return created;
    });
    if (company) route(companyPath(company, "dashboard"));
  };
  return (
    <section aria-labelledby="new-company">
      <h2 id="new-company">New company</h2>
      <form onSubmit={submit} class="stack narrow-form">
        <TextField label="Company name" name="name" required maxLength={200} />
        <TextField label="Monthly budget (USD)" name="budget" type="number" min={0} step="0.01" inputMode="decimal" />
        <Submit action={action} label="Create company" />
      </form>
    </section>
  );
}

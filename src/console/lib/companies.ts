// The companies the board user can open, the one open now (its issue prefix is the first part of
// every company page's URL, so deep links carry it) and the one remembered for the next visit.
import { signal } from "@preact/signals";
import { api, call, type Schemas } from "./api";

export type Company = Schemas["Company"];

const REMEMBERED = "acp.console.companyId";

/** undefined until loaded. */
export const companies = signal<Company[] | undefined>(undefined);
export const companiesError = signal<string | null>(null);
export const companiesLoading = signal(false);
export const currentCompany = signal<Company | null>(null);

export async function loadCompanies(): Promise<Company[]> {
  companiesLoading.value = true;
  try {
    const list = await call(api.GET("/api/companies"));
    companies.value = list;
    companiesError.value = null;
    return list;
  } catch (err) {
    companiesError.value = (err as Error).message;
    throw err;
  } finally {
    companiesLoading.value = false;
  }
}

export function rememberedCompanyId(): string | null {
  try {
    return localStorage.getItem(REMEMBERED);
  } catch {
    return null;
  }
}

export function rememberCompany(company: Company) {
  try {
    localStorage.setItem(REMEMBERED, company.id);
  } catch {
    /* storage disabled: nothing remembered */
  }
}

/** The company a URL's first segment names (its issue prefix, any case), if the user has it. */
export function companyByPrefix(list: Company[], prefix: string): Company | undefined {
  const wanted = prefix.toUpperCase();
  return list.find((c) => c.issuePrefix.toUpperCase() === wanted);
}

/** Paths of a company's pages: `/ACME/issues`. */
export const companyPath = (company: Pick<Company, "issuePrefix">, rest = "") => `/${encodeURIComponent(company.issuePrefix)}${rest ? `/${rest}` : ""}`;

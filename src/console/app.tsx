// The console's shell: asks the service who the user is, then routes. Board pages need a session
// (otherwise /sign-in, coming back afterwards); company pages find their company from the URL's
// first segment and follow it live (lib/follow.ts).
import { Component, type ComponentChildren, type ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";
import { LocationProvider, Route, Router, useLocation } from "preact-iso/router";
import { Layout } from "./components/layout";
import { Redirect } from "./components/redirect";
import { ErrorMessage, Loading } from "./components/states";
import { onUnauthorized } from "./lib/api";
import { companies, companiesError, companiesLoading, companyByPrefix, loadCompanies } from "./lib/companies";
import { openCompany } from "./lib/follow";
import { bootError, loadSession, session } from "./lib/session";
import { useTitle } from "./lib/title";
import { type PageProps, type PageRoute, routes } from "./routes";

onUnauthorized(() => {
  session.value = null;
});

export function App() {
  useEffect(() => {
    void loadSession();
  }, []);
  if (bootError.value) {
    return (
      <main id="main" class="boot">
        <h1>Agent Control Plane</h1>
        <ErrorMessage message={bootError.value} retry={() => void loadSession()} />
      </main>
    );
  }
  if (session.value === undefined) {
    return (
      <main id="main" class="boot">
        <Loading what="the console" />
      </main>
    );
  }
  return (
    <LocationProvider>
      <Boundary>
        <Router>{[...gated.map((r) => <Route key={r.path} path={r.path} component={r.component} />), <Route key="*" default component={NotFound} />]}</Router>
      </Boundary>
    </LocationProvider>
  );
}

function gate(route: PageRoute): ComponentType<PageProps> {
  const Page = route.page;
  return function Gate(props: PageProps) {
    const { url } = useLocation();
    if (route.access === "public") return <Page {...props} />;
    if (!session.value) return <Redirect to={`/sign-in?next=${encodeURIComponent(url)}`} />;
    if (route.access === "board") return <Page {...props} />;
    return <CompanyScope {...props} page={Page} />;
  };
}
const gated = routes.map((route) => ({ path: route.path, component: gate(route) }));

function CompanyScope({ path, params, query, page: Page }: PageProps & { page: ComponentType<PageProps & { company: unknown }> }) {
  const list = companies.value;
  const company = list ? companyByPrefix(list, params.company) : undefined;
  // A prefix not in the list may be a company made since it was loaded (the CLI, another tab): ask once more.
  const [askedAgain, setAskedAgain] = useState<string | null>(null);
  useEffect(() => {
    if (!list) void loadCompanies().catch(() => {});
    else if (!company && askedAgain !== params.company) {
      setAskedAgain(params.company);
      void loadCompanies().catch(() => {});
    }
  }, [list, company, params.company]);
  useEffect(() => {
    if (company) openCompany(company);
  }, [company]);
  if (!list) {
    return (
      <Layout>
        {companiesError.value ? (
          <ErrorMessage message={companiesError.value} retry={() => void loadCompanies().catch(() => {})} />
        ) : (
          <Loading what="companies" />
        )}
      </Layout>
    );
  }
  if (!company)
    return askedAgain === params.company && !companiesLoading.value ? (
      <CompanyMissing prefix={params.company} />
    ) : (
      <Layout>
        <Loading what="the company" />
      </Layout>
    );
  return (
    <Layout company={company}>
      <Page path={path} params={params} query={query} company={company} />
    </Layout>
  );
}

function CompanyMissing({ prefix }: { prefix: string }) {
  useTitle("Company not found", false);
  return (
    <Layout>
      <h1 tabIndex={-1}>Company not found</h1>
      <p>
        You have no company with the prefix “{prefix}”. <a href="/companies">Choose a company</a>.
      </p>
    </Layout>
  );
}

function NotFound() {
  useTitle("Page not found", false);
  return (
    <Layout>
      <h1 tabIndex={-1}>Page not found</h1>
      <p>
        There is no page here. <a href="/">Go to the start page</a>.
      </p>
    </Layout>
  );
}

/** Anything a page throws while rendering (or a page chunk that failed to load) shows as an error. */
class Boundary extends Component<{ children: ComponentChildren }, { error: Error | null }> {
  state = { error: null as Error | null };
  componentDidCatch(error: Error) {
    this.setState({ error });
  }
  render() {
    if (!this.state.error) return this.props.children;
    return (
      <main id="main" class="boot">
        <h1>Something went wrong</h1>
        <ErrorMessage message={this.state.error.message} retry={() => location.reload()} />
      </main>
    );
  }
}

// The instance's plugins (not one company's): each installed plugin's status, version and last
// error, with Enable or Disable; Install for a plugin this build ships that is not installed.
// Board users see the list; the changes need an instance admin (the API's 403 says so otherwise).
import { Feedback, useAction } from "../components/action";
import { StatusBadge } from "../components/badges";
import { Layout } from "../components/layout";
import { Async } from "../components/states";
import { api, call, type Schemas } from "../lib/api";
import { ago } from "../lib/format";
import { useResource } from "../lib/resource";
import { useTitle } from "../lib/title";

type Plugin = Schemas["Plugin"];

/** The plugins this build ships, by key (src/domain/plugins/registry.ts). */
const SHIPPED = [{ key: "knowledge-wiki", name: "Knowledge wiki" }];

export default function PluginsPage() {
  useTitle("Plugins", false);
  const plugins = useResource(() => call(api.GET("/api/plugins", { params: { query: {} } })), [], { types: [] });
  const action = useAction();
  const change = (plugin: Plugin, verb: "enable" | "disable") =>
    action
      .run(
        () => call(api.POST(`/api/plugins/{pluginId}/${verb}`, { params: { path: { pluginId: plugin.id } } })),
        (p) => `${p.pluginKey} is ${p.status}.`,
      )
      .then(() => plugins.reload());
  const install = (key: string) =>
    action
      .run(
        () => call(api.POST("/api/plugins/install", { body: { packageName: key } })),
        (p) => `${p.pluginKey} installed: ${p.status}.`,
      )
      .then(() => plugins.reload());
  const missing = SHIPPED.filter((s) => plugins.data && !plugins.data.some((p) => p.pluginKey === s.key));
  return (
    <Layout>
      <h1 tabIndex={-1}>Plugins</h1>
      <p class="meta">Plugins are installed for the whole instance: every company's agents gain a ready plugin's tools and lose a disabled one's.</p>
      <Feedback action={action} />
      <Async resource={plugins} what="plugins" empty="No plugins installed.">
        {(list) => (
          <ul class="rows plugin-list">
            {list.map((p) => (
              <li key={p.id}>
                <span class="mono">{p.pluginKey}</span> <StatusBadge status={p.status} />{" "}
                <span class="meta">
                  version {p.version} · {p.packageName} · changed {ago(p.updatedAt)}
                </span>
                {p.lastError && <p class="error">Last error: {p.lastError}</p>}{" "}
                {p.status === "ready" ? (
                  <button type="button" disabled={action.busy} onClick={() => change(p, "disable")}>
                    Disable<span class="visually-hidden"> {p.pluginKey}</span>
                  </button>
                ) : (
                  <button type="button" class="primary" disabled={action.busy} onClick={() => change(p, "enable")}>
                    Enable<span class="visually-hidden"> {p.pluginKey}</span>
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Async>
      {missing.map((s) => (
        <section class="card stack narrow-form" key={s.key} aria-labelledby={`install-${s.key}`}>
          <h2 id={`install-${s.key}`}>{s.name}</h2>
          <p class="meta">Not installed ({s.key}).</p>
          <button type="button" class="primary" disabled={action.busy} onClick={() => install(s.key)}>
            Install {s.name}
          </button>
        </section>
      ))}
    </Layout>
  );
}

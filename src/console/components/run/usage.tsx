// What a run used and cost: the usage its agent reported with its completion (tokens, provider,
// model) and the cost events recorded for it (GET …/cost-events?heartbeatRunId=), with their total.
import { Fragment } from "preact";
import { api, call, type Schemas } from "../../lib/api";
import { count, money } from "../../lib/format";
import { useResource } from "../../lib/resource";
import { Async } from "../states";

const USAGE_NAMES: Record<string, string> = {
  provider: "Provider",
  model: "Model",
  inputTokens: "Input tokens",
  cachedInputTokens: "Cached input tokens",
  outputTokens: "Output tokens",
  costCents: "Cost reported",
  costUsd: "Cost reported",
  billingType: "Billing",
};

function usageValue(key: string, value: unknown): string {
  if (key === "costCents" && typeof value === "number") return money(value);
  if (key === "costUsd" && typeof value === "number") return money(Math.round(value * 100));
  if (typeof value === "number") return count(value);
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function RunUsage({ run, companyId }: { run: Schemas["HeartbeatRun"]; companyId: string }) {
  const costs = useResource(
    () => call(api.GET("/api/companies/{companyId}/cost-events", { params: { path: { companyId }, query: { heartbeatRunId: run.id, limit: 500 } } })),
    [companyId, run.id],
    { types: ["cost.*", "run.finished"], when: (event) => (event.data as { agentId?: string } | undefined)?.agentId === run.agentId },
  );
  const usage = Object.entries(run.usage ?? {}).filter(([, value]) => value !== null && value !== undefined);
  return (
    <section aria-labelledby="run-usage">
      <h2 id="run-usage">Usage and cost</h2>
      {usage.length ? (
        <dl class="facts">
          {usage.map(([key, value]) => (
            <Fragment key={key}>
              <dt>{USAGE_NAMES[key] ?? key}</dt>
              <dd>{usageValue(key, value)}</dd>
            </Fragment>
          ))}
        </dl>
      ) : (
        <p class="empty">No usage reported{run.finishedAt ? "" : " yet"}.</p>
      )}
      <Async resource={costs} what="costs" empty="No cost recorded for this run.">
        {(list) => (
          <>
            <p>
              Cost recorded: <strong>{money(list.reduce((sum, c) => sum + c.costCents, 0))}</strong>
            </p>
            <ul class="rows" aria-label="Cost events">
              {list.map((c) => (
                <li key={c.id}>
                  {money(c.costCents)}{" "}
                  <span class="meta">
                    {c.provider} · {c.model} · {count(c.inputTokens)} in, {count(c.outputTokens)} out
                    {c.cachedInputTokens ? `, ${count(c.cachedInputTokens)} cached` : ""}
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </Async>
    </section>
  );
}

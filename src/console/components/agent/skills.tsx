// An agent's desired skills (GET /api/agents/{id}/skills): every skill of the company library with
// a box each, ticked for those the agent should have; Save skills sets exactly the ticked ones
// (POST …/skills/sync). The library itself is on the skills page.
import { useEffect, useState } from "preact/hooks";
import { api, call } from "../../lib/api";
import { type Company, companyPath } from "../../lib/companies";
import { label } from "../../lib/enums";
import { useResource } from "../../lib/resource";
import { Submit, useAction } from "../action";
import { CheckField } from "../fields";
import { Async } from "../states";

export function AgentSkills({ agentId, company }: { agentId: string; company: Company }) {
  const action = useAction();
  const snapshot = useResource(() => call(api.GET("/api/agents/{agentId}/skills", { params: { path: { agentId } } })), [agentId], {
    types: ["agent.updated"],
    when: (event) => event.subject?.id === agentId,
  });
  const [chosen, setChosen] = useState<string[] | null>(null);
  const desired = snapshot.data?.desiredSkills;
  // Shown as stored until the board changes a box; stored again after a save.
  useEffect(() => setChosen(null), [desired?.join(",")]);
  const ticked = chosen ?? desired ?? [];
  const toggle = (key: string, on: boolean) => setChosen(on ? [...ticked.filter((k) => k !== key), key] : ticked.filter((k) => k !== key));
  const save = async (event: Event) => {
    event.preventDefault();
    const saved = await action.run(
      () => call(api.POST("/api/agents/{agentId}/skills/sync", { params: { path: { agentId } }, body: { desiredSkills: ticked } })),
      (s) => (s.desiredSkills.length ? `Skills saved: ${s.desiredSkills.join(", ")}.` : "Skills saved: none."),
    );
    if (saved) void snapshot.reload();
  };
  return (
    <section aria-labelledby="agent-skills">
      <h2 id="agent-skills">Skills</h2>
      <p class="meta">
        The skills this agent is given with each run, from <a href={companyPath(company, "skills")}>the company's library</a>.
      </p>
      <Async resource={snapshot} what="skills" isEmpty={(s) => s.entries.length === 0} empty="The company's library has no skills yet.">
        {(s) => (
          <form class="stack" onSubmit={save}>
            {!s.supported && <p class="empty">This agent's adapter ({s.adapterType}) does not take skills.</p>}
            {s.warnings.map((w) => (
              <p key={w} class="meta">
                {w}
              </p>
            ))}
            <fieldset class="stack">
              <legend>Desired skills</legend>
              {s.entries.map((entry) => (
                <CheckField
                  key={entry.key}
                  label={entry.key}
                  checked={ticked.includes(entry.key)}
                  hint={`${label(entry.origin)} · ${label(entry.state)}`}
                  onChange={(e) => toggle(entry.key, e.currentTarget.checked)}
                />
              ))}
            </fieldset>
            <Submit action={action} label="Save skills" />
          </form>
        )}
      </Async>
    </section>
  );
}

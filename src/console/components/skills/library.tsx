// The company's skill library: each skill with where it came from (bundled with the service, the
// catalog, a URL, a repository, an upload, made here), its trust level and its last audit; Audit
// runs the audit again (POST …/skills/{id}/audit) and lists its findings under the skill.
import { useState } from "preact/hooks";
import { api, call, type Schemas } from "../../lib/api";
import { label } from "../../lib/enums";
import { ago, when } from "../../lib/format";
import { Feedback, useAction } from "../action";

type Skill = Schemas["Skill"];
type Audit = Schemas["SkillAudit"];

const SOURCES: Record<Skill["sourceType"], string> = {
  bundled: "Bundled with the service",
  catalog: "From the catalog",
  url: "Imported from a URL",
  git_host: "Imported from a repository",
  registry: "Imported from the skills registry",
  local_path: "Uploaded folder",
  project_scan: "Found in a project's workspace",
  managed_local: "Made in this company",
};

const TRUST: Record<Skill["trustLevel"], string> = {
  markdown_only: "Markdown only",
  assets: "Markdown and assets",
  scripts_executables: "Has scripts",
};

export function SkillLibrary({ skills, companyId, onChanged }: { skills: Skill[]; companyId: string; onChanged: () => void }) {
  return (
    <ul class="rows skills">
      {skills.map((skill) => (
        <SkillRow key={skill.id} skill={skill} companyId={companyId} onChanged={onChanged} />
      ))}
    </ul>
  );
}

function SkillRow({ skill, companyId, onChanged }: { skill: Skill; companyId: string; onChanged: () => void }) {
  const action = useAction();
  const [audit, setAudit] = useState<Audit | null>(null);
  const run = async () => {
    const result = await action.run(
      () => call(api.POST("/api/companies/{companyId}/skills/{skillId}/audit", { params: { path: { companyId, skillId: skill.id } } })),
      (a) => `Audit of ${skill.name}: ${label(a.verdict).toLowerCase()}, ${a.findings.length} finding${a.findings.length === 1 ? "" : "s"}.`,
    );
    if (result) {
      setAudit(result);
      onChanged();
    }
  };
  const verdict = audit?.verdict ?? skill.audit?.verdict;
  return (
    <li>
      <h3>
        {skill.name} <code>{skill.key}</code>
      </h3>
      {skill.description && <p>{skill.description}</p>}
      <p class="meta">
        {SOURCES[skill.sourceType]}
        {skill.sourceRef && skill.sourceType !== "bundled" && (
          <>
            : <span class="mono source-ref">{skill.sourceRef}</span>
          </>
        )}{" "}
        · {TRUST[skill.trustLevel]} · {skill.files.length} file{skill.files.length === 1 ? "" : "s"}
        {skill.locallyModified ? " · changed here" : ""} · audit: {verdict ? <span class={`badge verdict-${verdict}`}>{label(verdict)}</span> : "not audited"}
        {skill.audit?.auditedAt && !audit && (
          <>
            {" "}
            <time dateTime={skill.audit.auditedAt} title={when(skill.audit.auditedAt)}>
              {ago(skill.audit.auditedAt)}
            </time>
          </>
        )}
      </p>
      <div class="actions">
        <button type="button" disabled={action.busy} onClick={run} aria-label={`Audit ${skill.name}`}>
          Audit
        </button>
      </div>
      <Feedback action={action} />
      {audit && audit.findings.length > 0 && (
        <ul class="findings" aria-label={`Findings for ${skill.name}`}>
          {audit.findings.map((f) => (
            <li key={`${f.code}:${f.path}`}>
              <span class={`badge verdict-${f.severity}`}>{label(f.severity)}</span> <code>{f.code}</code> {f.message}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

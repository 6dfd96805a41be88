// Import skills from a source the service fetches (POST …/skills/import `{ source }`): a GitHub
// repository or folder, a skills.sh page, an install command naming one, or the URL of a SKILL.md.
// Says what was imported, skipped or in conflict (changed here: "Replace skills changed here" imports
// them anyway) and any warnings.
import { useState } from "preact/hooks";
import { api, call, type Schemas } from "../../lib/api";
import { submittedForm } from "../../lib/form";
import { Submit, useAction } from "../action";
import { CheckField, TextField } from "../fields";

type ImportResult = Schemas["SkillImportResult"];

export function SkillImport({ companyId, onImported }: { companyId: string; onImported: () => void }) {
  const action = useAction();
  const [force, setForce] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const submit = async (event: Event) => {
    const { text, element } = submittedForm(event);
    setResult(null);
    const imported = await action.run(
      () => call(api.POST("/api/companies/{companyId}/skills/import", { params: { path: { companyId } }, body: { source: text("source"), force } })),
      (r) => `Imported ${r.imported.length} skill${r.imported.length === 1 ? "" : "s"}.`,
    );
    if (!imported) return;
    setResult(imported);
    element.reset();
    onImported();
  };
  return (
    <form class="stack narrow-form" onSubmit={submit}>
      <TextField
        label="Source"
        name="source"
        required
        maxLength={2000}
        placeholder="https://github.com/owner/repo/tree/main/skills"
        hint="A GitHub repository or folder (or owner/repo), a skills.sh page, an install command naming one, or the URL of a SKILL.md."
      />
      <CheckField label="Replace skills changed here" checked={force} onChange={(e) => setForce(e.currentTarget.checked)} />
      <Submit action={action} label="Import" />
      {result && (
        <ul class="rows" aria-label="What the import did">
          {result.imported.map((s) => (
            <li key={s.id}>
              {s.name} <code>{s.key}</code>: {s.action}
            </li>
          ))}
          {result.skipped.map((s) => (
            <li key={`skip-${s.key}`}>
              <code>{s.key}</code> skipped: {s.reason}
            </li>
          ))}
          {result.conflicts.map((s) => (
            <li key={`conflict-${s.key}`}>
              <code>{s.key}</code> not replaced: {s.reason}
            </li>
          ))}
          {result.warnings.map((w) => (
            <li key={w} class="meta">
              {w}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}

// The skills the service ships (GET /api/skills/catalog): the bundled ones every company has, and the
// optional ones the board installs into the library with Install (POST …/skills/install-catalog).
import { api, call, type Schemas } from "../../lib/api";
import { label } from "../../lib/enums";
import { Feedback, useAction } from "../action";

type CatalogSkill = Schemas["CatalogSkill"];

export function SkillCatalog({
  entries,
  installedKeys,
  companyId,
  onInstalled,
}: {
  entries: CatalogSkill[];
  installedKeys: Set<string>;
  companyId: string;
  onInstalled: () => void;
}) {
  return (
    <ul class="cards">
      {entries.map((entry) => (
        <CatalogCard key={entry.id} entry={entry} installed={installedKeys.has(entry.key)} companyId={companyId} onInstalled={onInstalled} />
      ))}
    </ul>
  );
}

function CatalogCard({ entry, installed, companyId, onInstalled }: { entry: CatalogSkill; installed: boolean; companyId: string; onInstalled: () => void }) {
  const action = useAction();
  const install = async () => {
    const result = await action.run(
      () => call(api.POST("/api/companies/{companyId}/skills/install-catalog", { params: { path: { companyId } }, body: { catalogSkillId: entry.id } })),
      (r) =>
        `${entry.name} ${r.action === "created" ? "installed" : r.action === "updated" ? "updated" : "was already installed"}.${r.warnings.length ? ` ${r.warnings.join(" ")}` : ""}`,
    );
    if (result) onInstalled();
  };
  return (
    <li class="card">
      <h3>{entry.name}</h3>
      <p class="meta">
        <code>{entry.key}</code> · {entry.kind === "bundled" ? "bundled" : "optional"} · {entry.category} · {label(entry.trustLevel)}
      </p>
      {entry.description && <p>{entry.description}</p>}
      {installed ? (
        <p class="meta">In the library.</p>
      ) : (
        <button type="button" class="primary" disabled={action.busy} onClick={install} aria-label={`Install ${entry.name}`}>
          Install
        </button>
      )}
      <Feedback action={action} />
    </li>
  );
}

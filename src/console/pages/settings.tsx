// Company settings: name and description, brand colour and logo (uploaded as an image, then set as
// the company's logo), and whether new agents need the board's approval. The header and the company
// list show the changes at once (the companies are loaded again).
import { useEffect, useState } from "preact/hooks";
import { Feedback, useAction } from "../components/action";
import { TextArea, TextField } from "../components/fields";
import { SettingsNav } from "../components/settings-nav";
import { api, call, filePart } from "../lib/api";
import { type Company, companyPath, loadCompanies } from "../lib/companies";
import { bytes, money } from "../lib/format";
import { useTitle } from "../lib/title";
import type { CompanyPageProps } from "../routes";
import { submittedForm } from "../lib/form";

const LOGO_TYPES = "image/png,image/jpeg,image/webp,image/gif,image/svg+xml";
const MAX_LOGO_BYTES = 5 * 1024 * 1024;

export default function SettingsPage({ company }: CompanyPageProps) {
  useTitle("Settings");
  return (
    <>
      <h1 tabIndex={-1}>Settings</h1>
      <SettingsNav company={company} />
      <CompanyForm company={company} />
      <Logo company={company} />
      <Hiring company={company} />
      <section aria-labelledby="settings-budget">
        <h2 id="settings-budget">Monthly budget</h2>
        <p>
          {company.budgetMonthlyCents > 0
            ? `${money(company.spentMonthlyCents)} of ${money(company.budgetMonthlyCents)} spent this month.`
            : "No monthly budget."}{" "}
          <a href={companyPath(company, "costs")}>Budgets are set on the costs page</a>.
        </p>
      </section>
    </>
  );
}

function CompanyForm({ company }: { company: Company }) {
  const action = useAction();
  const [color, setColor] = useState(company.brandColor ?? "");
  const submit = async (event: Event) => {
    const { text } = submittedForm(event);
    const saved = await action.run(
      () =>
        call(
          api.PATCH("/api/companies/{companyId}/branding", {
            params: { path: { companyId: company.id } },
            body: { name: text("name"), description: text("description") || null, brandColor: color || null },
          }),
        ),
      "Company saved.",
    );
    if (saved) await loadCompanies().catch(() => {});
  };
  return (
    <section aria-labelledby="settings-company">
      <h2 id="settings-company">Company</h2>
      <form class="stack narrow-form" onSubmit={submit}>
        <TextField label="Company name" name="name" required maxLength={200} defaultValue={company.name} />
        <TextArea label="Description" name="description" rows={3} maxLength={10000} defaultValue={company.description ?? ""} />
        <div class="inline-form">
          <TextField
            label="Brand colour"
            value={color}
            onInput={(e) => setColor(e.currentTarget.value)}
            pattern="#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})"
            placeholder="#0a58ca"
            hint="A hex colour, or empty for none."
          />
          {color && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color) && <span class="swatch" style={{ background: color }} aria-hidden="true" />}
        </div>
        <Feedback action={action} />
        <div class="actions">
          <button type="submit" class="primary" disabled={action.busy}>
            Save company
          </button>
        </div>
      </form>
    </section>
  );
}

function Logo({ company }: { company: Company }) {
  const action = useAction();
  const upload = async (event: Event) => {
    const { element, form } = submittedForm(event);
    const file = form.get("file");
    if (!(file instanceof File) || !file.name) return action.fail("Choose an image to upload.");
    if (file.size > MAX_LOGO_BYTES) return action.fail(`${file.name} is ${bytes(file.size)}; choose a smaller image.`);
    const saved = await action.run(async () => {
      const asset = await call(api.POST("/api/companies/{companyId}/logo", { params: { path: { companyId: company.id } }, ...filePart(file) }));
      return call(api.PATCH("/api/companies/{companyId}/branding", { params: { path: { companyId: company.id } }, body: { logoAssetId: asset.assetId } }));
    }, "Logo uploaded.");
    if (saved) {
      element.reset();
      await loadCompanies().catch(() => {});
    }
  };
  const remove = async () => {
    const saved = await action.run(
      () => call(api.PATCH("/api/companies/{companyId}/branding", { params: { path: { companyId: company.id } }, body: { logoAssetId: null } })),
      "Logo removed.",
    );
    if (saved) await loadCompanies().catch(() => {});
  };
  return (
    <section aria-labelledby="settings-logo">
      <h2 id="settings-logo">Logo</h2>
      {company.logoUrl ? (
        <p>
          <img class="logo-preview" src={company.logoUrl} alt={`${company.name} logo`} />
        </p>
      ) : (
        <p class="empty">No logo yet.</p>
      )}
      <form class="inline-form" onSubmit={upload}>
        <TextField label="Logo image" type="file" name="file" accept={LOGO_TYPES} required hint="PNG, JPEG, WebP, GIF or SVG." />
        <button type="submit" disabled={action.busy}>
          Upload logo
        </button>
        {company.logoUrl && (
          <button type="button" disabled={action.busy} onClick={remove}>
            Remove logo
          </button>
        )}
      </form>
      <Feedback action={action} />
    </section>
  );
}

function Hiring({ company }: { company: Company }) {
  const action = useAction();
  // Shown as asked at once; put back if the service refuses.
  const [required, setRequired] = useState(company.requireBoardApprovalForNewAgents);
  useEffect(() => setRequired(company.requireBoardApprovalForNewAgents), [company.requireBoardApprovalForNewAgents]);
  const toggle = async (next: boolean) => {
    setRequired(next);
    const saved = await action.run(
      () => call(api.PATCH("/api/companies/{companyId}", { params: { path: { companyId: company.id } }, body: { requireBoardApprovalForNewAgents: next } })),
      next ? "New agents now need the board's approval." : "New agents no longer need the board's approval.",
    );
    if (saved) await loadCompanies().catch(() => {});
    else setRequired(!next);
  };
  return (
    <section aria-labelledby="settings-hiring">
      <h2 id="settings-hiring">Hiring</h2>
      <div class="check">
        <input id="require-approval" type="checkbox" checked={required} disabled={action.busy} onChange={(e) => toggle(e.currentTarget.checked)} />
        <label for="require-approval">New agents need the board's approval</label>
      </div>
      <Feedback action={action} />
    </section>
  );
}

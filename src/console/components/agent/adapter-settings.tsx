// How an agent runs, as its settings form edits it: the adapter type, then one control per field the
// adapter declares (GET /api/adapters) by its type — text, number, checkbox, a choice of its allowed
// values, JSON text for objects and arrays, a text box for instructions and prompts. A credential is
// chosen among the company's secrets and kept as a reference: its value is never shown or typed here.
import type { AdapterField, AdapterInfo } from "../../lib/agent-settings";
import { isLongText } from "../../lib/agent-settings";
import { type Company, companyPath } from "../../lib/companies";
import type { FieldErrors } from "../../lib/field-errors";
import { CheckField, SelectField, TextArea, TextField } from "../fields";

export interface SecretChoice {
  id: string;
  name: string;
}

const shown = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

function hintOf(field: AdapterField) {
  const need = field.required ? "Required." : field.default !== undefined && field.default !== null ? `Default: ${shown(field.default)}.` : "Optional.";
  return `${field.description} ${need}`.trim();
}

export function AdapterSettings({
  adapters,
  adapterType,
  values,
  secrets,
  errors,
  company,
  onType,
  onValue,
}: {
  adapters: AdapterInfo[];
  adapterType: string;
  values: Record<string, string | boolean>;
  secrets: SecretChoice[];
  errors: FieldErrors;
  company: Company;
  onType: (type: string) => void;
  onValue: (name: string, value: string | boolean) => void;
}) {
  const adapter = adapters.find((a) => a.type === adapterType);
  return (
    <fieldset class="stack">
      <legend>How it runs</legend>
      <SelectField
        label="Adapter"
        value={adapterType}
        error={errors.adapterType}
        hint={adapter ? `${adapter.description} Changing it starts the configuration afresh.` : undefined}
        options={adapters.map((a) => ({ value: a.type, label: `${a.label} (${a.type})` }))}
        onChange={(e) => onType(e.currentTarget.value)}
      />
      {adapter?.fields.map((field) => (
        <AdapterFieldControl
          key={`${adapterType}.${field.name}`}
          field={field}
          value={values[field.name] ?? ""}
          secrets={secrets}
          error={errors[`adapterConfig.${field.name}`]}
          company={company}
          onValue={(value) => onValue(field.name, value)}
        />
      ))}
    </fieldset>
  );
}

function AdapterFieldControl({
  field,
  value,
  secrets,
  error,
  company,
  onValue,
}: {
  field: AdapterField;
  value: string | boolean;
  secrets: SecretChoice[];
  error: string | undefined;
  company: Company;
  onValue: (value: string | boolean) => void;
}) {
  const common = { label: field.name, error, required: field.required };
  if (field.type === "boolean") {
    return <CheckField label={field.name} error={error} checked={value === true} hint={hintOf(field)} onChange={(e) => onValue(e.currentTarget.checked)} />;
  }
  const text = typeof value === "string" ? value : "";
  if (field.secret) {
    const known = secrets.some((s) => s.id === text);
    return (
      <SelectField
        {...common}
        value={text}
        hint={
          <>
            {field.description} A company secret, kept as a reference (its value is never shown here);{" "}
            <a href={companyPath(company, "settings/secrets")}>the company's secrets</a>.
          </>
        }
        options={[
          { value: "", label: "No secret" },
          ...(text && !known ? [{ value: text, label: `Secret ${text} (not listed)` }] : []),
          ...secrets.map((s) => ({ value: s.id, label: s.name })),
        ]}
        onChange={(e) => onValue(e.currentTarget.value)}
      />
    );
  }
  if (field.enum) {
    const fallback = field.default !== undefined && field.default !== null ? `Default (${shown(field.default)})` : "Not set";
    return (
      <SelectField
        {...common}
        value={text}
        hint={field.description}
        options={[
          ...(field.required && text ? [] : [{ value: "", label: field.required ? "Choose…" : fallback }]),
          ...field.enum.map((v) => ({ value: v, label: v })),
        ]}
        onChange={(e) => onValue(e.currentTarget.value)}
      />
    );
  }
  const placeholder = field.default !== undefined && field.default !== null ? shown(field.default) : undefined;
  if (field.type === "object" || field.type === "array" || isLongText(field)) {
    return (
      <TextArea
        {...common}
        class={isLongText(field) ? undefined : "mono"}
        rows={isLongText(field) ? 6 : 3}
        spellcheck={isLongText(field)}
        placeholder={placeholder}
        hint={isLongText(field) ? hintOf(field) : `JSON ${field.type}. ${hintOf(field)}`}
        value={text}
        onInput={(e) => onValue(e.currentTarget.value)}
      />
    );
  }
  if (field.type === "integer" || field.type === "number") {
    return (
      <TextField
        {...common}
        type="number"
        step={field.type === "integer" ? 1 : "any"}
        inputMode={field.type === "integer" ? "numeric" : "decimal"}
        placeholder={placeholder}
        hint={hintOf(field)}
        value={text}
        onInput={(e) => onValue(e.currentTarget.value)}
      />
    );
  }
  return <TextField {...common} placeholder={placeholder} hint={hintOf(field)} value={text} onInput={(e) => onValue(e.currentTarget.value)} />;
}

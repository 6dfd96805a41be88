// Labelled form fields: every control has a visible label tied to it, and a refused value's message
// (`error`, e.g. the API's for that field) shown under it and announced with it.
import type { ComponentChildren, InputHTMLAttributes, SelectHTMLAttributes, TargetedEvent, TextareaHTMLAttributes } from "preact";
import { useId } from "preact/hooks";

interface FieldProps {
  label: string;
  hint?: ComponentChildren;
  /** Why the value was refused (shown under the control, which is marked invalid). */
  error?: string | null;
}

/** The hint and error under a control, and the attributes that tie them to it. */
function useNotes(hint: ComponentChildren, error: string | null | undefined) {
  const id = useId();
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return {
    id,
    control: { id, "aria-describedby": described || undefined, "aria-invalid": error ? ("true" as const) : undefined },
    notes: (
      <>
        {hint && (
          <small id={`${id}-hint`} class="hint">
            {hint}
          </small>
        )}
        {error && (
          <small id={`${id}-error`} class="error field-error">
            {error}
          </small>
        )}
      </>
    ),
  };
}

export function TextField({ label, hint, error, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const { id, control, notes } = useNotes(hint, error);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input {...control} {...input} />
      {notes}
    </div>
  );
}

export function TextArea({ label, hint, error, ...input }: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { id, control, notes } = useNotes(hint, error);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea {...control} {...input} />
      {notes}
    </div>
  );
}

export interface Option {
  value: string;
  label: string;
}

/** A select of `options`, then of each group's options under its heading (an optgroup). */
export function SelectField({
  label,
  hint,
  error,
  options,
  groups = [],
  ...select
}: FieldProps & { options: Option[]; groups?: Array<{ label: string; options: Option[] }> } & SelectHTMLAttributes<HTMLSelectElement>) {
  const { id, control, notes } = useNotes(hint, error);
  const list = (items: Option[]) =>
    items.map((o) => (
      <option key={o.value} value={o.value}>
        {o.label}
      </option>
    ));
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select {...control} {...select}>
        {list(options)}
        {groups
          .filter((g) => g.options.length > 0)
          .map((g) => (
            <optgroup key={g.label} label={g.label}>
              {list(g.options)}
            </optgroup>
          ))}
      </select>
      {notes}
    </div>
  );
}

/** A checkbox with its label beside it. */
export function CheckField({
  label,
  hint,
  error,
  checked,
  disabled,
  onChange,
}: FieldProps & { checked: boolean; disabled?: boolean; onChange: (event: TargetedEvent<HTMLInputElement>) => void }) {
  const { id, control, notes } = useNotes(hint, error);
  return (
    <div class="field">
      <div class="check">
        <input {...control} type="checkbox" checked={checked} disabled={disabled} onChange={onChange} />
        <label for={id}>{label}</label>
      </div>
      {notes}
    </div>
  );
}

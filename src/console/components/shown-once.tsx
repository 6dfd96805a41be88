// A secret the service returns once (a webhook's signing secret, an API key's token, an invite
// link): shown in a read-only field to copy, with the warning that it will not be shown again.
// Nothing keeps it: closing the box, or leaving the page, forgets it.
import type { ComponentChildren } from "preact";
import { useId, useState } from "preact/hooks";

export function ShownOnce({ label, value, onClose, children }: { label: string; value: string; onClose: () => void; children?: ComponentChildren }) {
  const id = useId();
  const [copied, setCopied] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("Copied.");
    } catch {
      setCopied("Copying is not allowed here: select the text and copy it.");
    }
  };
  return (
    <section class="once" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{label}: shown only now</h3>
      <p>Copy it now and keep it somewhere safe. It will not be shown again.</p>
      <div class="field">
        <label for={id}>{label}</label>
        <input id={id} class="mono" readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
      </div>
      {children}
      <div class="actions">
        <button type="button" onClick={copy}>
          Copy
        </button>
        <button type="button" onClick={onClose}>
          Done
        </button>
        <span role="status" class="meta">
          {copied}
        </span>
      </div>
    </section>
  );
}

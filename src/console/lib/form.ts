// A submitted form, read the way every console form reads it: the default submit is stopped, and
// `text(name)` is the field's trimmed value ("" when absent).
export function submittedForm(event: Event): { form: FormData; text: (name: string) => string } {
  event.preventDefault();
  const form = new FormData(event.currentTarget as HTMLFormElement);
  return { form, text: (name: string) => String(form.get(name) ?? "").trim() };
}

// A submitted form, read the way every console form reads it: the default submit is stopped,
// `text(name)` is the field's trimmed value ("" when absent), `form` the raw values (files, text as
// typed) and `element` the form itself (to reset it once saved).
export function submittedForm(event: Event): { element: HTMLFormElement; form: FormData; text: (name: string) => string } {
  event.preventDefault();
  const element = event.currentTarget as HTMLFormElement;
  const form = new FormData(element);
  return { element, form, text: (name: string) => String(form.get(name) ?? "").trim() };
}

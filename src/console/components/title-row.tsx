// A list page's heading with its "New …" button, which hides itself while the create form is open.
export function TitleWithCreate({ title, createLabel, creating, onCreate }: { title: string; createLabel: string; creating: boolean; onCreate: () => void }) {
  return (
    <div class="title-row">
      <h1 tabIndex={-1}>{title}</h1>
      {!creating && (
        <button type="button" class="primary" onClick={onCreate}>
          {createLabel}
        </button>
      )}
    </div>
  );
}

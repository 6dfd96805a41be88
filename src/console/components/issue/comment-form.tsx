// The form that posts a comment (markdown) on an issue.
import { useState } from "preact/hooks";
import { api, call } from "../../lib/api";
import { Submit, useAction } from "../action";
import { TextArea } from "../fields";

export function CommentForm({ issueId, onPosted }: { issueId: string; onPosted: () => void }) {
  const action = useAction();
  const [body, setBody] = useState("");
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!body.trim()) return;
    const posted = await action.run(() => call(api.POST("/api/issues/{issueId}/comments", { params: { path: { issueId } }, body: { body } })));
    if (posted) {
      setBody("");
      onPosted();
    }
  };
  return (
    <form class="stack" onSubmit={submit}>
      <TextArea label="Comment" rows={4} required value={body} onInput={(e) => setBody(e.currentTarget.value)} hint="Markdown; raw HTML is shown as text." />
      <Submit action={action} label="Post comment" primary />
    </form>
  );
}

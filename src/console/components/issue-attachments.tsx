// An issue's attachments: name, type, size, who added it and when, a link to open it and one to
// download it; "Upload" adds a file (at most 25 MiB). Attachments are announced by no event, so the
// list reloads with the issue's events and when a run ends.
import { agentName } from "../lib/agents";
import { api, call, filePart } from "../lib/api";
import { ago, bytes, when } from "../lib/format";
import { submittedForm } from "../lib/form";
import { useResource } from "../lib/resource";
import { Feedback, useAction } from "./action";
import { TextField } from "./fields";
import { Async } from "./states";

const MAX_BYTES = 25 * 1024 * 1024;

export function IssueAttachments({ companyId, issueId, identifier }: { companyId: string; issueId: string; identifier: string }) {
  const attachments = useResource(() => call(api.GET("/api/issues/{issueId}/attachments", { params: { path: { issueId } } })), [issueId], {
    types: ["issue.*", "run.finished", "attachment.added"],
    when: (event) => event.type === "run.finished" || event.subject?.id === issueId || (event.data as { identifier?: string })?.identifier === identifier,
  });
  const action = useAction();
  const upload = async (event: Event) => {
    const { element, form } = submittedForm(event);
    const file = form.get("file");
    if (!(file instanceof File) || !file.name) return action.fail("Choose a file to upload.");
    if (file.size > MAX_BYTES) return action.fail(`${file.name} is ${bytes(file.size)}; an attachment may be at most 25 MiB.`);
    const saved = await action.run(
      () => call(api.POST("/api/companies/{companyId}/issues/{issueId}/attachments", { params: { path: { companyId, issueId } }, ...filePart(file) })),
      `${file.name} uploaded.`,
    );
    if (saved) {
      element.reset();
      void attachments.reload();
    }
  };
  return (
    <section aria-labelledby="issue-attachments">
      <h2 id="issue-attachments">Attachments</h2>
      <Async resource={attachments} what="attachments" empty="No attachments.">
        {(list) => (
          <ul class="rows attachments">
            {list.map((a) => {
              const name = a.originalFilename ?? "attachment";
              return (
                <li key={a.id}>
                  <a href={a.contentPath} target="_blank" rel="noopener">
                    {name}
                  </a>{" "}
                  <span class="meta">
                    {a.contentType} · {bytes(a.byteSize)} · added by {a.createdByAgentId ? agentName(a.createdByAgentId) : "the board"}{" "}
                    <time dateTime={a.createdAt} title={when(a.createdAt)}>
                      {ago(a.createdAt)}
                    </time>
                  </span>{" "}
                  <a href={a.downloadPath} download={name} aria-label={`Download ${name}`}>
                    Download
                  </a>
                </li>
              );
            })}
          </ul>
        )}
      </Async>
      <form class="inline-form" onSubmit={upload}>
        <TextField label="File" type="file" name="file" required />
        <button type="submit" disabled={action.busy}>
          Upload
        </button>
      </form>
      <Feedback action={action} />
    </section>
  );
}

// Two texts' line diff: added and removed lines marked by sign and colour and named for screen
// readers; long unchanged stretches folded.
import { diffLines, diffStats, foldUnchanged } from "../lib/line-diff";

const SIGN = { same: " ", add: "+", del: "−" } as const;
const SPOKEN = { same: "", add: "Added: ", del: "Removed: " } as const;

export function DiffView({ before, after, label }: { before: string; after: string; label: string }) {
  const lines = diffLines(before, after);
  const { added, removed } = diffStats(lines);
  if (added === 0 && removed === 0) return <p class="empty">No changes between these revisions.</p>;
  return (
    <figure class="diff">
      <figcaption>
        {label}: {added} {added === 1 ? "line" : "lines"} added, {removed} removed
      </figcaption>
      <ol>
        {foldUnchanged(lines).map((block, b) =>
          block.kind === "skipped" ? (
            <li key={`s${b}`} class="diff-skip">
              … {block.count} unchanged {block.count === 1 ? "line" : "lines"}
            </li>
          ) : (
            block.lines.map((line, i) => (
              <li key={`${b}-${i}`} class={`diff-${line.op}`}>
                <span class="diff-sign" aria-hidden="true">
                  {SIGN[line.op]}
                </span>
                {SPOKEN[line.op] && <span class="visually-hidden">{SPOKEN[line.op]}</span>}
                {line.text || "\u00a0"}
              </li>
            ))
          ),
        )}
      </ol>
    </figure>
  );
}

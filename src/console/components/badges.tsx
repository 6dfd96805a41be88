// Status and priority shown as words (colour only repeats what the word says).
import { label } from "../lib/enums";

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge status-${status}`}>{label(status)}</span>;
}

export function PriorityBadge({ priority }: { priority: string }) {
  return <span class={`badge priority-${priority}`}>{label(priority)}</span>;
}

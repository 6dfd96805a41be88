// The assignee picker of an issue (its page and New issue): unassigned, the company's agents, and
// its people (lib/assignees.ts says how a choice becomes assigneeAgentId / assigneeUserId).
import type { TargetedEvent } from "preact";
import { assigneeOptions } from "../lib/assignees";
import { usePeople } from "../lib/people";
import { SelectField } from "./fields";

export function AssigneeSelect({
  companyId,
  value,
  name,
  onChange,
}: {
  companyId: string;
  value: string;
  name?: string;
  onChange: (event: TargetedEvent<HTMLSelectElement>) => void;
}) {
  usePeople(companyId);
  const { options, groups } = assigneeOptions(companyId, value);
  return <SelectField label="Assignee" name={name} options={options} groups={groups} value={value} onChange={onChange} />;
}

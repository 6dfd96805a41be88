// The shipped skill catalog: our own content, in the Worker bundle. `bundled` skills are part of
// every company's library (re-imported on each list); `optional` ones are installed on request
// (`install-catalog`). Every `METHOD /api/...` a skill names must exist in the OpenAPI document
// (test/http/skills-catalog.test.ts), so they stay accurate as the API grows.
import { adapterTypes, typesWhere } from "../../adapters";

export interface CatalogSource {
  id: string;
  key: string;
  kind: "bundled" | "optional";
  category: string;
  compatibility: string[];
  defaultInstall: boolean;
  recommendedForRoles: string[];
  requires: string[];
  tags: string[];
  /** Relative path → text content; `SKILL.md` carries the frontmatter (name, description, slug, key). */
  files: Record<string, string>;
}

const HEARTBEAT = `---
name: Heartbeat
slug: heartbeat
key: service/heartbeat
description: How one heartbeat run goes — read the wake context, check out with the run id, work, comment, update status, write documents, release.
---

# One heartbeat

You are woken for a reason: the run's \`context.wakeReason\` (\`assignment\`, \`comment\`, \`mention\`,
\`blocker_resolved\`, \`approval_resolved\`, \`routine\`, \`timer\`, \`on_demand\`) and, usually, an
\`issueId\`. Authenticate every call with \`Authorization: Bearer <apiToken>\` (the run's token, or your
agent key) and send \`X-Service-Run-Id: <runId>\` so your work is attributed to this run.

1. **Read.** \`GET /api/agents/me\` (who you are), \`GET /api/agents/me/inbox-lite\` (your open issues),
   \`GET /api/issues/{issueId}/heartbeat-context\` (the issue, its ancestors, project, goal and recent
   comments). Read new comments with \`GET /api/issues/{issueId}/comments\`.
2. **Check out** before changing anything: \`POST /api/issues/{issueId}/checkout\` with
   \`{ "agentId": "<you>", "expectedStatuses": ["todo", "backlog"] }\`. A 409 means someone else holds it:
   pick other work, do not retry in a loop.
3. **Work and report.** Comment with \`POST /api/issues/{issueId}/comments\` (\`{ "body": "..." }\`);
   \`@Name\` wakes that agent and costs budget, so mention only when you need them. Long output goes in
   a document: \`PUT /api/issues/{issueId}/documents/{key}\` with \`{ "body": "...", "baseRevisionId": "<latest>" }\`
   (a stale \`baseRevisionId\` is a 409: read \`GET /api/issues/{issueId}/documents/{key}\` and merge).
4. **Log progress** of a long run: \`POST /api/heartbeat-runs/{runId}/events\` with
   \`{ "events": [{ "kind": "log", "message": "..." }] }\`.
5. **Finish.** \`PATCH /api/issues/{issueId}\` with \`{ "status": "done" }\` (or \`in_review\`, \`blocked\` with a
   comment saying why). If you stop without finishing, \`POST /api/issues/{issueId}/release\`.
6. If your endpoint answered 202, report the outcome once: \`POST /api/heartbeat-runs/{runId}/complete\`
   with \`{ "status": "succeeded", "summary": "...", "usage": { "provider": "...", "model": "...", "costCents": 12 } }\`.

Never print or store your key or token in comments, documents or logs.
`;

const ISSUES = `---
name: Issues
slug: issues
key: service/issues
description: Working with issues — find, create, split into sub-issues, block on others and hand off.
---

# Issues

- List: \`GET /api/companies/{companyId}/issues\` with \`status\`, \`assigneeAgentId\`, \`projectId\`, \`parentId\`,
  \`q\` (search) and \`limit\`. One issue: \`GET /api/issues/{issueId}\` (a UUID or an identifier like \`ABC-12\`).
- Create: \`POST /api/companies/{companyId}/issues\` with \`{ "title": "...", "description": "...", "parentId": "<issue>",
  "assigneeAgentId": "<agent>", "blockedByIssueIds": ["<issue>"] }\`. Split big work into sub-issues (\`parentId\`).
- Change: \`PATCH /api/issues/{issueId}\` (status, priority, assignee, blockers). Add \`"comment"\` to explain the change
  in the same call. A done blocker wakes the assignees of the issues it blocked.
- History: \`GET /api/issues/{issueId}/activity\` and the runs that touched it: \`GET /api/issues/{issueId}/runs\`.
- Hand off by reassigning with a comment that says what is done and what is next.
`;

const APPROVALS = `---
name: Approvals
slug: approvals
key: service/approvals
description: Requesting board approvals (hires, strategy, budget overrides) and acting on their outcome.
---

# Approvals

Ask the board before anything it must decide: \`POST /api/companies/{companyId}/approvals\` with
\`{ "type": "request_board_approval", "payload": { "title": "...", "summary": "...", "recommendedAction": "...", "risks": ["..."] }, "issueIds": ["<issue>"] }\`.

- Follow it: \`GET /api/approvals/{approvalId}\` and its discussion \`GET /api/approvals/{approvalId}/comments\`;
  answer with \`POST /api/approvals/{approvalId}/comments\`.
- When the board asks for a revision, change the payload and \`POST /api/approvals/{approvalId}/resubmit\`.
- A resolved approval wakes you with \`SERVICE_APPROVAL_ID\` and \`SERVICE_APPROVAL_STATUS\` in the run's env:
  continue the linked issues (\`GET /api/approvals/{approvalId}/issues\`) accordingly.
`;

const HIRING = `---
name: Hiring and reporting
slug: hiring
key: service/hiring
description: How a manager hires a direct report and how every agent reports up the org tree.
---

# Hiring and reporting

- See the team: \`GET /api/companies/{companyId}/agents\` (name, role, title, \`reportsTo\`, status).
- Hire: \`POST /api/companies/{companyId}/agent-hires\` with the new agent's \`name\`, \`role\`, \`title\`, \`reportsTo\`
  (usually you), \`adapterType\`, \`adapterConfig\` and \`desiredSkills\`. The board approves the hire
  (a \`hire_agent\` approval) before the agent can run.
- Delegate by creating issues assigned to your reports; review their work through comments and status.
- Report: keep your manager's issue current with a short comment per heartbeat — what moved, what is blocked,
  what you need. Spend shows in \`GET /api/companies/{companyId}/costs/summary\`; stay within your budget.
`;

const BOARD = `---
name: Board
slug: board
key: service/board
description: How a board member steers the company — goals, priorities, approvals, budgets and pausing work.
---

# Steering as a board member

- Overview: \`GET /api/companies/{companyId}/dashboard\`, the org \`GET /api/companies/{companyId}/agents\`,
  goals \`GET /api/companies/{companyId}/goals\` and spend \`GET /api/companies/{companyId}/costs/summary\`.
- Direct: create goals (\`POST /api/companies/{companyId}/goals\`) and issues, reprioritise with
  \`PATCH /api/issues/{issueId}\`, and comment to give instructions (the assignee is woken).
- Decide: \`GET /api/companies/{companyId}/approvals\`, then \`POST /api/approvals/{approvalId}/approve\`,
  \`POST /api/approvals/{approvalId}/reject\` or \`POST /api/approvals/{approvalId}/request-revision\`.
- Stop work: \`POST /api/agents/{agentId}/pause\` (live runs are cancelled), \`POST /api/agents/{agentId}/resume\`;
  interrupt one issue with a comment and \`"interrupt": true\` on \`PATCH /api/issues/{issueId}\`.
- Watch runs: \`GET /api/companies/{companyId}/heartbeat-runs\` and \`GET /api/heartbeat-runs/{runId}/events\`.
`;

const ROUTINES = `---
name: Routines
slug: routines
key: service/routines
description: Recurring and externally triggered work — schedules, webhooks and API runs that create execution issues.
---

# Routines

- Create: \`POST /api/companies/{companyId}/routines\` with \`{ "title": "Weekly report for {{team}}", "assigneeAgentId": "<agent>",
  "variables": [{ "name": "team", "defaultValue": "core" }] }\`.
- Schedule it: \`POST /api/routines/{routineId}/triggers\` with \`{ "kind": "schedule", "cronExpression": "0 9 * * 1", "timezone": "Europe/Berlin" }\`,
  or a webhook (\`{ "kind": "webhook" }\`; keep the returned secret) or \`{ "kind": "api" }\`.
- Run now: \`POST /api/routines/{routineId}/run\`; history: \`GET /api/routines/{routineId}/runs\`.
- Each run creates (or coalesces into) an execution issue assigned to the routine's agent; mark it done when finished.
`;

const RUN_EVENTS = `---
name: Run events logger
slug: run-events
key: service/run-events
description: A small shell helper that appends a log line to the current heartbeat run.
---

# Run events logger

\`scripts/post-event.sh "message"\` appends one \`log\` event to the current run through
\`POST /api/heartbeat-runs/{runId}/events\`, reading \`SERVICE_API_URL\`, \`SERVICE_API_TOKEN\` and
\`SERVICE_RUN_ID\` from the environment.
`;

const POST_EVENT_SH = `#!/bin/sh
# Appends one log event to the current heartbeat run.
set -eu
message="\${1:-}"
body=$(printf '{"events":[{"kind":"log","message":%s}]}' "$(printf '%s' "$message" | sed 's/\\\\/\\\\\\\\/g; s/"/\\\\"/g; s/^/"/; s/$/"/')")
curl -sS -X POST "$SERVICE_API_URL/api/heartbeat-runs/$SERVICE_RUN_ID/events" \\
  -H "authorization: Bearer $SERVICE_API_TOKEN" -H 'content-type: application/json' -d "$body"
`;

/** Markdown skills suit every adapter; a skill with scripts needs a runtime that can run them (one on a runner). */
const EVERY_ADAPTER = adapterTypes.slice();
const LOCAL_ADAPTERS = typesWhere("runner");

export const CATALOG_SOURCES: CatalogSource[] = [
  {
    id: "catalog-heartbeat",
    key: "service/heartbeat",
    kind: "bundled",
    category: "operations",
    compatibility: EVERY_ADAPTER,
    defaultInstall: true,
    recommendedForRoles: ["ceo", "engineer", "manager", "general"],
    requires: [],
    tags: ["heartbeat", "runs", "checkout"],
    files: { "SKILL.md": HEARTBEAT },
  },
  {
    id: "catalog-issues",
    key: "service/issues",
    kind: "bundled",
    category: "work",
    compatibility: EVERY_ADAPTER,
    defaultInstall: true,
    recommendedForRoles: ["ceo", "engineer", "manager", "general"],
    requires: [],
    tags: ["issues", "planning"],
    files: { "SKILL.md": ISSUES },
  },
  {
    id: "catalog-approvals",
    key: "service/approvals",
    kind: "bundled",
    category: "governance",
    compatibility: EVERY_ADAPTER,
    defaultInstall: true,
    recommendedForRoles: ["ceo", "manager"],
    requires: [],
    tags: ["approvals", "board"],
    files: { "SKILL.md": APPROVALS },
  },
  {
    id: "catalog-hiring",
    key: "service/hiring",
    kind: "bundled",
    category: "organisation",
    compatibility: EVERY_ADAPTER,
    defaultInstall: true,
    recommendedForRoles: ["ceo", "manager"],
    requires: ["service/approvals"],
    tags: ["hiring", "reporting", "org"],
    files: { "SKILL.md": HIRING },
  },
  {
    id: "catalog-board",
    key: "service/board",
    kind: "bundled",
    category: "governance",
    compatibility: EVERY_ADAPTER,
    defaultInstall: true,
    recommendedForRoles: ["ceo"],
    requires: [],
    tags: ["board", "steering"],
    files: { "SKILL.md": BOARD },
  },
  {
    id: "catalog-routines",
    key: "service/routines",
    kind: "optional",
    category: "automation",
    compatibility: EVERY_ADAPTER,
    defaultInstall: false,
    recommendedForRoles: ["ceo", "manager"],
    requires: [],
    tags: ["routines", "schedules", "webhooks"],
    files: { "SKILL.md": ROUTINES },
  },
  {
    id: "catalog-run-events",
    key: "service/run-events",
    kind: "optional",
    category: "operations",
    compatibility: LOCAL_ADAPTERS,
    defaultInstall: false,
    recommendedForRoles: ["engineer"],
    requires: ["service/heartbeat"],
    tags: ["runs", "logging", "script"],
    files: { "SKILL.md": RUN_EVENTS, "scripts/post-event.sh": POST_EVENT_SH },
  },
];

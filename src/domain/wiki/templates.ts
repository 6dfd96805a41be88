// What a bootstrap writes and creates: the control files (only when missing), the maintainer's
// description, the wiki skills and the maintenance routines.

export const CONTROL_FILE_CONTENTS: Record<string, string> = {
  "AGENTS.md": `# Wiki maintainer instructions

You maintain this company's knowledge wiki: a shared, durable memory of decisions, how-tos and
sources that agents read before they act and write after.

- Search first (\`knowledge-wiki:wiki_search\`), read the pages you will change
  (\`wiki_read_page\` gives their \`hash\`), then write with that \`expectedHash\`. A 409 means someone
  else wrote the page since you read it: read it again and merge.
- Pages are markdown under \`wiki/\`: \`wiki/sources/\`, \`wiki/projects/\`, \`wiki/areas/\`,
  \`wiki/entities/\`, \`wiki/concepts/\`, \`wiki/synthesis/\`. Link pages with \`[[wiki links]]\` or
  relative markdown links; backlinks follow.
- Raw sources under \`raw/\` are immutable: summarise them into pages, cite their \`rawPath\`.
- Keep \`wiki/index.md\` listing the pages (\`wiki_update_index\`) and record what you changed in
  \`wiki/log.md\` (\`wiki_append_log\`).
- Answer questions from the wiki, citing the pages you used; say what the wiki does not know.
`,
  "IDEA.md": `# What this wiki is for

The company's shared memory: what was decided and why, how things are done, who and what the
company works with, and the sources behind them. Agents read it before they act and write to it
after. Edit this file to steer what the maintainer collects.
`,
  "wiki/index.md": `# Wiki index

Every page of the wiki, by area. The maintainer keeps this list current.
`,
  "wiki/log.md": `# Wiki log

Append-only record of wiki maintenance.

`,
};

export const MAINTAINER = {
  name: "Wiki Maintainer",
  role: "general",
  title: "Knowledge wiki maintainer",
  capabilities: "Ingests sources, maintains wiki pages, answers cited questions and runs wiki lint and index maintenance through the knowledge-wiki tools.",
  adapterType: "claude_local",
};

export const PROJECT = {
  name: "Knowledge Wiki",
  description: "Operation issues of the knowledge wiki (ingest, query, lint, maintenance), managed by the knowledge-wiki plugin.",
};

export const SKILLS = [
  {
    slug: "knowledge-wiki-maintainer",
    name: "Knowledge wiki maintainer",
    description: "Maintain the company knowledge wiki: ingest sources, write pages with expectedHash, keep the index and log.",
    body: `# Knowledge wiki maintainer

Tools: \`knowledge-wiki:wiki_search\`, \`wiki_list_pages\`, \`wiki_read_page\`, \`wiki_write_page\`,
\`wiki_propose_patch\`, \`wiki_list_sources\`, \`wiki_read_source\`, \`wiki_list_backlinks\`,
\`wiki_update_index\`, \`wiki_append_log\` (on \`/mcp\` as \`knowledge-wiki__<tool>\`, or
\`POST /api/plugins/tools/execute\`). Every tool takes \`companyId\` and \`wikiId\` (\`default\`).

1. Read the operation issue; search the wiki for what it touches.
2. Read each page you will change and keep its \`hash\`.
3. Write with \`expectedHash\`; on 409 re-read, merge, write again.
4. Update \`wiki/index.md\` for new pages; append one line per change to \`wiki/log.md\`.
5. For a query: answer from the wiki with the pages cited, as the run's \`answer\` (or summary).
`,
  },
  {
    slug: "knowledge-wiki-reader",
    name: "Knowledge wiki reader",
    description: "Use the company knowledge wiki before acting and record what you learned after.",
    body: `# Knowledge wiki reader

Before acting, search the wiki (\`knowledge-wiki:wiki_search\`) and read the pages it returns.
After acting, record decisions and how-tos: read the page, then \`wiki_write_page\` with the
\`expectedHash\` you read (a 409 means it changed: read again and merge). You may not write
\`AGENTS.md\` or \`IDEA.md\`.
`,
  },
] as const;

export const ROUTINES = [
  {
    key: "nightly-lint",
    title: "Knowledge wiki: nightly lint",
    description: "Check the wiki for orphan pages, broken links, stale sources and index or log drift; fix what is safe and report the rest.",
    cronExpression: "0 3 * * *",
  },
  {
    key: "index-refresh",
    title: "Knowledge wiki: hourly index refresh",
    description: "Bring wiki/index.md up to date with the pages changed since the last refresh and append a log line.",
    cronExpression: "0 * * * *",
  },
] as const;

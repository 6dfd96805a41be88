// Issue and project fixtures inserted straight into D1 (for tests whose subject is not
// issue creation itself): numbers come from the company's counter, like real issues.
import { env } from "cloudflare:workers";
import { unique } from "./api";

export interface IssueFixture {
  id: string;
  companyId: string;
  identifier: string;
  number: number;
  title: string;
}

export async function insertIssue(
  companyId: string,
  fields: { title?: string; status?: string; projectId?: string | null; parentId?: string | null; hiddenAt?: string | null; description?: string | null } = {},
): Promise<IssueFixture> {
  const counter = await env.DB.prepare(
    "UPDATE companies SET issue_counter = issue_counter + 1 WHERE id = ?1 RETURNING issue_counter AS number, issue_prefix AS prefix",
  )
    .bind(companyId)
    .first<{ number: number; prefix: string }>();
  if (!counter) throw new Error(`insertIssue: company ${companyId} not found`);
  const id = crypto.randomUUID();
  const identifier = `${counter.prefix}-${counter.number}`;
  const title = fields.title ?? unique("Issue");
  const now = new Date().toISOString();
  await env.DB.prepare(
    `INSERT INTO issues (id, company_id, number, identifier, title, description, status, priority, project_id, parent_id, origin_kind, hidden_at, created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'medium', ?8, ?9, 'manual', ?10, ?11, ?11)`,
  )
    .bind(id, companyId, counter.number, identifier, title, fields.description ?? null, fields.status ?? "todo", fields.projectId ?? null, fields.parentId ?? null, fields.hiddenAt ?? null, now)
    .run();
  return { id, companyId, identifier, number: counter.number, title };
}

export async function insertProject(companyId: string, name = unique("Project")) {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await env.DB.prepare(
    "INSERT INTO projects (id, company_id, name, url_key, status, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 'in_progress', ?5, ?5)",
  )
    .bind(id, companyId, name, name.toLowerCase().replace(/[^a-z0-9]+/g, "-"), now)
    .run();
  return { id, companyId, name };
}

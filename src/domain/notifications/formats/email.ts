// An email's content, whichever provider sends it: a one-line subject, a plain-text part and an
// HTML part (every value escaped; one column, real headings and a table of facts, inline styles
// since mail clients drop style sheets, colours with enough contrast, and the link as a labelled
// button that is also readable as text).
import type { Notification } from "../message";
import { cut, escapeHtml, oneLine } from "./text";

/** The provider's part of an email channel; the content is the same for both. */
export interface EmailSettings {
  provider: "resend" | "postmark";
  /** The provider's API key (a secret). */
  apiKey: string;
  /** The provider's API; its public one when null or absent (set for a test). */
  apiBaseUrl?: string | null;
  /** "Acme agents <agents@acme.example>" or a bare address (the company's from-address). */
  from: string;
  to: string[];
}

export const EMAIL_LIMITS = { subject: 200, body: 20_000, fields: 30, fieldValue: 2000 };

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

const who = (n: Notification) => [n.actor, n.company.name].filter((part): part is string => !!part).map(oneLine);

const ACCENT = { info: "#0969da", warning: "#9a6700", error: "#cf222e" } as const;

export function emailContent(n: Notification): EmailContent {
  const subject = cut(`[${oneLine(n.company.name)}] ${oneLine(n.title)}`, EMAIL_LIMITS.subject);
  const body = cut(n.body.trim(), EMAIL_LIMITS.body);
  const fields = n.fields.slice(0, EMAIL_LIMITS.fields).map((f) => ({ label: oneLine(f.label), value: cut(f.value, EMAIL_LIMITS.fieldValue) }));
  const byline = who(n).join(" · ");
  const text = [
    oneLine(n.title),
    body,
    fields.map((f) => `${f.label}: ${f.value}`).join("\n"),
    `${oneLine(n.link.label)}: ${n.link.url}`,
    byline ? `— ${byline}` : "",
  ]
    .filter(Boolean)
    .join("\n\n");
  const html = emailHtml(n, subject, body, fields, byline);
  return { subject, text, html };
}

/** Plain text as HTML: escaped, line breaks kept. */
const paragraphs = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 16px">${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("\n");

function emailHtml(n: Notification, subject: string, body: string, fields: Array<{ label: string; value: string }>, byline: string): string {
  const accent = ACCENT[n.level];
  const rows = fields
    .map(
      (f) =>
        `<tr><th scope="row" align="left" valign="top" style="padding:4px 16px 4px 0;font-weight:600;white-space:nowrap">${escapeHtml(f.label)}</th>` +
        `<td style="padding:4px 0">${escapeHtml(f.value).replace(/\n/g, "<br>")}</td></tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:24px 12px;background:#f6f8fa;color:#1f2328;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5">
<div role="article" aria-roledescription="email" aria-label="${escapeHtml(oneLine(n.title))}" style="max-width:600px;margin:0 auto;background:#ffffff;border:1px solid #d0d7de;border-top:4px solid ${accent};border-radius:6px;padding:24px">
<p style="margin:0 0 8px;color:#57606a;font-size:14px">${escapeHtml(oneLine(n.company.name))}</p>
<h1 style="margin:0 0 16px;font-size:20px;line-height:1.3">${escapeHtml(oneLine(n.title))}</h1>
${body ? paragraphs(body) : ""}
${rows ? `<table style="border-collapse:collapse;margin:0 0 16px;font-size:15px">\n${rows}\n</table>` : ""}
<p style="margin:0 0 16px"><a href="${escapeHtml(n.link.url)}" style="display:inline-block;background:${ACCENT.info};color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(oneLine(n.link.label))}</a></p>
${byline ? `<p style="margin:0;color:#57606a;font-size:14px">${escapeHtml(byline)}</p>` : ""}
</div>
</body>
</html>
`;
}

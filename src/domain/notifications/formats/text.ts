// Text helpers the formats share: cutting to a service's limit with "…", and escaping plain text
// for each target markup (Slack mrkdwn, Telegram HTML, email HTML, Discord markdown).

const ELLIPSIS = "…";

/** `text` cut to at most `max` UTF-16 units (what the services count), ending in "…" when cut; never splits a surrogate pair. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return "";
  let end = max - ELLIPSIS.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end).trimEnd() + ELLIPSIS;
}

/**
 * `escapeFor(text)` cut so that the escaped result fits `max`: the longest cut of the plain text
 * (never an entity or an escape in half) whose escaped form is short enough.
 */
export function fitEscaped(text: string, max: number, escapeFor: (plain: string) => string): string {
  const whole = escapeFor(text);
  if (whole.length <= max) return whole;
  let [low, high] = [0, Math.min(text.length, max)];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (escapeFor(cut(text, mid)).length <= max) low = mid;
    else high = mid - 1;
  }
  return low > 0 ? escapeFor(cut(text, low)) : "";
}

/** One line: line breaks and other control characters become spaces (titles, subjects, headers). */
export const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim();

/** Slack mrkdwn: only &, < and > are escaped (which also makes `<!channel>`, `<@U…>` and `<url|…>` impossible). */
export const escapeSlack = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Telegram's HTML parse mode: text outside tags escapes &, < and > (the entities it knows). */
export const escapeTelegram = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A Telegram HTML attribute value (href): also the double quote (&quot; is one of its four entities). */
export const escapeTelegramAttribute = (text: string) => escapeTelegram(text).replace(/"/g, "&quot;");

/** HTML text and attribute values (email). */
export const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/**
 * Discord markdown (embed descriptions and field values render it): a backslash before the
 * characters that format anywhere (* _ ~ ` | [ ] < and the backslash) and before the ones that start a heading, list
 * or quote at the beginning of a line, so `**`, `[text](url)`, `<@id>`, `# x` and `- x` show as typed.
 */
export const escapeDiscord = (text: string) =>
  text
    .replace(/[\\*_~`|[\]<]/g, "\\$&")
    .replace(/^(\s*)([#>+-]|\d+(?=\.))/gm, (_, space: string, mark: string) => (/^\d/.test(mark) ? `${space}${mark}\\` : `${space}\\${mark}`));

/** A URL inside markup delimiters (Slack `<url|label>`, Discord `[label](url)`): the delimiters percent-encoded. */
export const urlForMarkup = (url: string) => url.replace(/[|<>()\s]/g, (c) => encodeURIComponent(c));

// Readable, stable operationIds for routes that do not name one: a verb from the method and the
// path's shape, and the resource it acts on (`GET /api/companies/{companyId}/issues` → listIssues,
// `POST /api/issues/{issueId}/checkout` → checkoutIssue, `GET /api/issues/{issueId}/comments` →
// listIssueComments). A name already taken gains the path's context until it is unique.

const camel = (words: string[]) => words.map((w, i) => (i === 0 ? w[0].toLowerCase() + w.slice(1) : w[0].toUpperCase() + w.slice(1))).join("");
const wordsOf = (segment: string) => segment.split(/[^A-Za-z0-9]+/).filter(Boolean);
const isParam = (segment: string) => segment.startsWith("{");

/** Plural path nouns to singular words (companies → company, policies → policy, aliases kept simple). */
export function singular(word: string): string {
  if (/ies$/.test(word)) return word.slice(0, -3) + "y";
  if (/(ss|us|is)$/.test(word)) return word;
  if (/(sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (/s$/.test(word)) return word.slice(0, -1);
  return word;
}

const cap = (w: string) => w[0].toUpperCase() + w.slice(1);

/** Candidate names for one route, most readable first (later ones carry more of the path). */
export function operationIdCandidates(method: string, path: string): string[] {
  const segments = path
    .replace(/^\/api\/?/, "")
    .split("/")
    .filter(Boolean);
  const verbFor = (last: string | undefined, itemPath: boolean) => {
    switch (method.toLowerCase()) {
      case "get":
        return itemPath ? "get" : "list";
      case "post":
        return "create";
      case "put":
        return "put";
      case "patch":
        return "update";
      case "delete":
        return "delete";
      default:
        return method.toLowerCase() + (last ?? "");
    }
  };
  // Nouns of the path (non-parameter segments) with whether an id follows each.
  const nouns: Array<{ words: string[]; hasId: boolean }> = [];
  segments.forEach((segment, i) => {
    if (isParam(segment)) return;
    nouns.push({ words: wordsOf(segment), hasId: i + 1 < segments.length && isParam(segments[i + 1]) });
  });
  if (!nouns.length) return [camel([method.toLowerCase(), "root"])];
  const last = segments[segments.length - 1];
  const lastNoun = nouns[nouns.length - 1];
  const nounWords = (n: { words: string[]; hasId: boolean }) => (n.hasId ? [...n.words.slice(0, -1), singular(n.words[n.words.length - 1])] : n.words);
  let verb: string;
  let subject: string[];
  let context: Array<{ words: string[]; hasId: boolean }>;
  const previous = nouns[nouns.length - 2];
  // An action: POST on a verb-like last segment after an id (`/issues/{id}/checkout`).
  if (!isParam(last) && method.toLowerCase() === "post" && previous?.hasId && !lastNoun.words.at(-1)!.endsWith("s")) {
    verb = camel(lastNoun.words);
    subject = nounWords(previous);
    context = nouns.slice(0, -2);
  } else {
    const itemPath = isParam(last);
    // GET of a collection lists it; GET of anything else (an item, `me`, `summary`) gets it.
    verb = verbFor(undefined, itemPath || !/s$/.test(last));
    subject =
      itemPath || method.toLowerCase() !== "get"
        ? nounWords({ ...lastNoun, hasId: itemPath || method.toLowerCase() === "post" || lastNoun.hasId })
        : lastNoun.words;
    if (!itemPath && method.toLowerCase() === "post") subject = [...lastNoun.words.slice(0, -1), singular(lastNoun.words.at(-1)!)];
    // A sub-resource names its owner (`/issues/{id}/comments` → IssueComments), the company scope does not.
    // …and so does a grouping segment (`/costs/summary` → CostSummary).
    const owner = previous && previous.words.join("-") !== "companies" ? [...previous.words.slice(0, -1), singular(previous.words.at(-1)!)] : [];
    subject = [...owner, ...subject];
    context = nouns.slice(0, owner.length ? -2 : -1);
  }
  const base = camel([verb, ...subject.map(cap)]);
  const candidates = [base];
  const extra: string[] = [];
  for (const n of [...context].reverse()) {
    extra.unshift(...nounWords(n).map(cap));
    candidates.push(camel([verb, ...extra, ...subject.map(cap)]));
  }
  return candidates;
}

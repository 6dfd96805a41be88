// Where imported skills come from, resolved and fetched in the Worker (never in the company
// object): an uploaded folder (the CLI's form), a GitHub repository, tree or blob (by URL,
// `owner/repo`, `owner/repo/skill`, a skills.sh registry URL or an install command naming one),
// or a plain URL of a SKILL.md. Fetches have time, size and file-count limits; every failure is a
// 4xx naming the problem. GitHub's API and raw hosts are configurable (GITHUB_API_URL,
// GITHUB_RAW_URL) so tests serve a fake repository.
import { unprocessable } from "../errors";
import { sha256Hex } from "../../crypto/hash";
import { SKILL_LIMITS } from "./package";
import type { ImportedPackage } from "./commands";

const FETCH_TIMEOUT_MS = 10_000;
const MAX_TREE_FILES = 2_000;

export type SkillSource =
  | { kind: "github"; owner: string; repo: string; ref: string | null; path: string | null; skillName: string | null; via: "git_host" | "registry" }
  | { kind: "url"; url: string }
  | { kind: "local_path"; path: string };

const GITHUB_PART = /^[A-Za-z0-9_.-]+$/;

/** What `source` names; a 422 for text that names nothing importable. */
export function parseSkillSource(raw: string): SkillSource {
  let source = raw.trim();
  // An install command: `npx skills add owner/repo --skill name`, `npx skills add <url>`, …
  const command = /^(?:npx|pnpm dlx|bunx|yarn dlx)\s+(?:-y\s+)?\S*skills\S*\s+(?:add|install)\s+(\S+)(?:.*?--skill[= ](\S+))?/i.exec(source);
  if (command) source = command[2] ? `${command[1].replace(/\/+$/, "")}/${command[2]}` : command[1];
  if (/^(\/|~\/|\.\.?\/|[A-Za-z]:\\|file:)/.test(source)) return { kind: "local_path", path: source };
  let url: URL | null = null;
  try {
    url = new URL(source);
  } catch {
    /* not a URL */
  }
  if (url) {
    if (url.protocol !== "https:" && url.protocol !== "http:") throw unprocessable(`Unsupported source URL scheme ${url.protocol}`, { source: raw });
    const parts = url.pathname.split("/").filter(Boolean);
    if (url.hostname === "github.com" || url.hostname === "www.github.com") {
      const [owner, repo, mode, ref, ...rest] = parts;
      if (!owner || !repo) throw unprocessable("A GitHub source needs owner and repository", { source: raw });
      const path = rest.length ? rest.join("/").replace(/\/?SKILL\.md$/, "") || null : null;
      return {
        kind: "github",
        owner,
        repo: repo.replace(/\.git$/, ""),
        ref: mode === "tree" || mode === "blob" ? (ref ?? null) : null,
        path,
        skillName: null,
        via: "git_host",
      };
    }
    if (url.hostname === "skills.sh" || url.hostname === "www.skills.sh") {
      const [owner, repo, skillName] = parts;
      if (!owner || !repo) throw unprocessable("A skills.sh source needs owner/repo[/skill]", { source: raw });
      return { kind: "github", owner, repo, ref: null, path: null, skillName: skillName ?? null, via: "registry" };
    }
    return { kind: "url", url: url.toString() };
  }
  const parts = source.split("/");
  if ((parts.length === 2 || parts.length === 3) && parts.every((p) => GITHUB_PART.test(p))) {
    return { kind: "github", owner: parts[0], repo: parts[1], ref: null, path: null, skillName: parts[2] ?? null, via: "git_host" };
  }
  throw unprocessable("Unrecognised skill source: use a GitHub URL, owner/repo[/skill], a skills.sh URL, an install command or a SKILL.md URL", {
    source: raw,
  });
}

const MAX_REDIRECTS = 3;
/** Totals for one import (all packages together). */
export const IMPORT_LIMITS = { maxPackages: 50, maxTotalBytes: 20 * 1024 * 1024 } as const;

export type UrlCheck = (url: string) => void;

/**
 * GET with a time limit, following at most MAX_REDIRECTS redirects by hand so `check` sees every
 * hop (a public deployment refuses loopback and private-network targets); 404 and other failures
 * are 422s naming what was fetched.
 */
async function fetchWithLimits(url: string, what: string, check: UrlCheck): Promise<Response> {
  let target = url;
  for (let hop = 0; ; hop++) {
    check(target);
    let res: Response;
    try {
      res = await fetch(target, { redirect: "manual", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { "user-agent": "agent-control-plane" } });
    } catch (err) {
      throw unprocessable(
        `Could not fetch ${what}: ${(err as Error).name === "TimeoutError" ? `no answer within ${FETCH_TIMEOUT_MS / 1000} s` : "network error"}`,
        { url: target },
      );
    }
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw unprocessable(`Fetching ${what} redirected more than ${MAX_REDIRECTS} times`, { url });
      target = new URL(location, target).toString();
      continue;
    }
    if (res.status === 404) throw unprocessable(`${what} was not found at the source (404)`, { url: target, status: 404 });
    if (!res.ok) throw unprocessable(`Fetching ${what} failed with HTTP ${res.status}`, { url: target, status: res.status });
    return res;
  }
}

/** The body, read with a byte counter: more than `limit` bytes stops the read (422). */
async function boundedBytes(res: Response, what: string, limit: number = SKILL_LIMITS.maxFileBytes): Promise<Uint8Array> {
  const declared = Number(res.headers.get("content-length") ?? "0");
  const tooLarge = () => unprocessable(`${what} is larger than ${limit} bytes`, { limitBytes: limit });
  if (declared > limit) {
    await res.body?.cancel();
    throw tooLarge();
  }
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** JSON of a small API answer (1 MiB at most). */
const boundedJson = async <T>(res: Response, what: string): Promise<T> => {
  const bytes = await boundedBytes(res, what);
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as T;
  } catch {
    throw unprocessable(`${what}: the answer was not JSON`);
  }
};

export interface ResolvedImport {
  packages: ImportedPackage[];
  source: { type: string; ref: string | null; commit: string | null };
}

/** Fetches the skills a GitHub source names: the commit, the tree, then each skill folder's files. */
const trusted: UrlCheck = () => undefined;

/** GitHub's API and raw-content hosts (configurable so tests serve a fake repository). */
function githubHosts(env: Env) {
  return {
    api: (env.GITHUB_API_URL ?? "https://api.github.com").replace(/\/+$/, ""),
    raw: (env.GITHUB_RAW_URL ?? "https://raw.githubusercontent.com").replace(/\/+$/, ""),
  };
}

async function fetchGithub(env: Env, src: Extract<SkillSource, { kind: "github" }>): Promise<ResolvedImport> {
  const { api, raw } = githubHosts(env);
  const repoName = `${src.owner}/${src.repo}`;
  let ref = src.ref;
  if (!ref) {
    const repo = await boundedJson<{ default_branch?: string }>(
      await fetchWithLimits(`${api}/repos/${repoName}`, `repository ${repoName}`, trusted),
      `repository ${repoName}`,
    );
    ref = repo.default_branch ?? "main";
  }
  const commit = await boundedJson<{ sha?: string }>(
    await fetchWithLimits(`${api}/repos/${repoName}/commits/${encodeURIComponent(ref)}`, `${repoName}@${ref}`, trusted),
    `${repoName}@${ref}`,
  );
  if (!commit.sha) throw unprocessable(`${repoName}@${ref} did not resolve to a commit`);
  const tree = await boundedJson<{ tree?: Array<{ path: string; type: string; size?: number }>; truncated?: boolean }>(
    await fetchWithLimits(`${api}/repos/${repoName}/git/trees/${commit.sha}?recursive=1`, `the file tree of ${repoName}`, trusted),
    `the file tree of ${repoName}`,
  );
  const blobs = (tree.tree ?? []).filter((e) => e.type === "blob");
  if (tree.truncated || blobs.length > MAX_TREE_FILES)
    throw unprocessable(`${repoName} is too large to import (more than ${MAX_TREE_FILES} files)`, { files: blobs.length });
  const inside = (path: string, dir: string) => dir === "" || path === dir || path.startsWith(`${dir}/`);
  let dirs = blobs.filter((b) => b.path === "SKILL.md" || b.path.endsWith("/SKILL.md")).map((b) => b.path.replace(/\/?SKILL\.md$/, ""));
  if (src.path) dirs = dirs.filter((d) => inside(d, src.path!));
  if (src.skillName) dirs = dirs.filter((d) => d.split("/").pop() === src.skillName || (d === "" && src.skillName === src.repo));
  // A skill folder inside another skill's folder belongs to that skill.
  dirs = dirs.filter((d) => !dirs.some((other) => other !== d && other !== "" && inside(d, other)));
  if (!dirs.length) {
    throw unprocessable(
      `No skill found in ${repoName}${src.path ? `/${src.path}` : ""}${src.skillName ? ` named ${src.skillName}` : ""}: a skill is a folder with a SKILL.md`,
      { repository: repoName },
    );
  }
  if (dirs.length > IMPORT_LIMITS.maxPackages)
    throw unprocessable(`${repoName} holds more than ${IMPORT_LIMITS.maxPackages} skills: import a folder of it`, { skills: dirs.length });
  const packages: ImportedPackage[] = [];
  let importTotal = 0;
  for (const dir of dirs) {
    const files = blobs.filter((b) => inside(b.path, dir) && !dirs.some((o) => o !== dir && o.length > dir.length && inside(b.path, o)));
    if (files.length > SKILL_LIMITS.maxFiles)
      throw unprocessable(`Skill ${dir || repoName} has more than ${SKILL_LIMITS.maxFiles} files`, { files: files.length });
    const total = files.reduce((n, f) => n + (f.size ?? 0), 0);
    if (total > SKILL_LIMITS.maxTotalBytes)
      throw unprocessable(`Skill ${dir || repoName} is larger than ${SKILL_LIMITS.maxTotalBytes} bytes`, { totalBytes: total });
    importTotal += total;
    if (importTotal > IMPORT_LIMITS.maxTotalBytes)
      throw unprocessable(`The import is larger than ${IMPORT_LIMITS.maxTotalBytes} bytes in all`, { totalBytes: importTotal });
    const fetched = await Promise.all(
      files.map(async (f) => ({
        path: dir ? f.path.slice(dir.length + 1) : f.path,
        bytes: await boundedBytes(
          await fetchWithLimits(`${raw}/${repoName}/${commit.sha}/${f.path.split("/").map(encodeURIComponent).join("/")}`, f.path, trusted),
          f.path,
        ),
      })),
    );
    packages.push({
      files: fetched,
      sourceType: src.via,
      sourceRef: `github:${repoName}${dir ? `/${dir}` : ""}@${ref}`,
      sourceCommit: commit.sha,
      keyPrefix: `github/${repoName}`.toLowerCase(),
    });
  }
  return { packages, source: { type: src.via, ref: `github:${repoName}${src.path ? `/${src.path}` : ""}@${ref}`, commit: commit.sha } };
}

/** Fetches and describes what `source` names (422 with the reason when it cannot). */
export async function resolveSkillSource(env: Env, source: string, checkUrl: UrlCheck): Promise<ResolvedImport> {
  const src = parseSkillSource(source);
  if (src.kind === "local_path") {
    throw unprocessable(
      "A local path cannot be read by the service: import the folder with the CLI (`skill import <path>`), which uploads its files (the `files` form of this route)",
      {
        path: src.path,
      },
    );
  }
  if (src.kind === "github") return fetchGithub(env, src);
  const bytes = await boundedBytes(await fetchWithLimits(src.url, "the SKILL.md", checkUrl), "the SKILL.md");
  const hash = sha256Hex(bytes);
  const host = new URL(src.url).hostname;
  return {
    packages: [{ files: [{ path: "SKILL.md", bytes }], sourceType: "url", sourceRef: src.url, sourceCommit: hash, keyPrefix: `url/${host}` }],
    source: { type: "url", ref: src.url, commit: hash },
  };
}

/** The upload form's files as packages: one SKILL.md at the root, or one skill per folder holding a SKILL.md. */
export function packagesFromUpload(
  files: Array<{ path: string; content: string; encoding?: "utf8" | "base64" }>,
  rootPath: string | undefined,
): ResolvedImport {
  const decoded = files.map((f) => {
    let bytes: Uint8Array;
    if (f.encoding === "base64") {
      try {
        bytes = Uint8Array.from(atob(f.content), (ch) => ch.charCodeAt(0));
      } catch {
        throw unprocessable(`File ${f.path} is not valid base64`, { path: f.path });
      }
    } else bytes = new TextEncoder().encode(f.content);
    return { path: f.path.replace(/\\/g, "/").replace(/^\.\//, ""), bytes };
  });
  const total = decoded.reduce((n, f) => n + f.bytes.byteLength, 0);
  if (total > IMPORT_LIMITS.maxTotalBytes) throw unprocessable(`The upload is larger than ${IMPORT_LIMITS.maxTotalBytes} bytes`, { totalBytes: total });
  const ref = rootPath ?? null;
  const base = { sourceType: "local_path" as const, sourceRef: ref, sourceCommit: null, keyPrefix: "local" };
  if (decoded.some((f) => f.path === "SKILL.md")) return { packages: [{ ...base, files: decoded }], source: { type: "local_path", ref, commit: null } };
  const dirs = [...new Set(decoded.filter((f) => f.path.endsWith("/SKILL.md")).map((f) => f.path.slice(0, -"/SKILL.md".length)))];
  if (!dirs.length) throw unprocessable("The uploaded folder has no SKILL.md (at its root or in its sub-folders)");
  const packages = dirs.map((dir) => ({
    ...base,
    files: decoded.filter((f) => f.path.startsWith(`${dir}/`)).map((f) => ({ path: f.path.slice(dir.length + 1), bytes: f.bytes })),
  }));
  return { packages, source: { type: "local_path", ref, commit: null } };
}

/** The source text that fetches a stored skill again (from its recorded sourceRef), or null when it has none. */
export function refetchSource(sourceType: string, sourceRef: string | null): string | null {
  if (!sourceRef) return null;
  const github = /^github:([^/]+)\/([^/@]+)(?:\/([^@]*))?@(.+)$/.exec(sourceRef);
  if (github && ["git_host", "registry", "project_scan"].includes(sourceType)) {
    const [, owner, repo, dir, ref] = github;
    return `https://github.com/${owner}/${repo}/tree/${ref}${dir ? `/${dir}` : ""}`;
  }
  return sourceType === "url" && /^https?:\/\//.test(sourceRef) ? sourceRef : null;
}

/** The origin's current commit (GitHub) or content hash (URL) of a stored skill, without importing it. */
export async function latestSourceCommit(env: Env, sourceType: string, sourceRef: string | null, checkUrl: UrlCheck): Promise<string | null> {
  const source = refetchSource(sourceType, sourceRef);
  if (!source) return null;
  const src = parseSkillSource(source);
  if (src.kind === "github") {
    const { api } = githubHosts(env);
    const what = `${src.owner}/${src.repo}`;
    const commit = await boundedJson<{ sha?: string }>(
      await fetchWithLimits(`${api}/repos/${src.owner}/${src.repo}/commits/${encodeURIComponent(src.ref ?? "HEAD")}`, what, trusted),
      what,
    );
    return commit.sha ?? null;
  }
  if (src.kind === "url") return sha256Hex(await boundedBytes(await fetchWithLimits(src.url, "the SKILL.md", checkUrl), "the SKILL.md"));
  return null;
}

// Telling a CLI's failures apart from what it printed (the result text, its error events, stderr):
// not signed in, a usage or rate limit (with the time it resets), a turn limit, an unknown model,
// a session it cannot resume. The phrases are the CLIs' own (Claude Code, Codex, Gemini, OpenCode,
// Cursor, Pi); a failure matching none is a plain process failure.
import type { FailureCode } from "./types";

const AUTH =
  /not logged in|please (?:run )?`?\/?login|login required|log in (?:first|again)|authentication(?:_failed| failed| required)|not authenticated|please authenticate|unauthori[sz]ed|invalid (?:api[ _-]?key|x-api-key|bearer)|api[ _-]?key (?:is )?(?:required|missing|invalid|not (?:set|found))|no api key found|please set an auth method|manual authorization is required|run `?(?:claude|codex|gemini|opencode|cursor-agent|agent|pi)(?: auth)? login|refresh[ _]token (?:was |has been )?(?:reused|expired|invalidated|revoked)|invalid_grant|missing bearer/i;

const LIMIT =
  /hit your (?:session |usage |daily |weekly )?limit|(?:session|usage|5-hour|weekly|daily) limit (?:reached|exceeded)|out of (?:extra )?usage|usage cap reached|claude (?:ai )?usage limit|rate[ _-]?limit(?:ed|_error| exceeded| reached)?|too many requests|\b429\b|resource[ _]exhausted|quota (?:exceeded|exhausted)|exceeded your current quota|model (?:is )?at capacity|capacity limit|overloaded|servicequotaexceeded|free usage exceeded/i;

const MODEL_NOT_FOUND =
  /model not found|unknown model|providermodelnotfounderror|model .{0,80}(?:does not exist|is not (?:supported|available))|invalid model/i;

const UNKNOWN_SESSION =
  /no conversation found|unknown (?:session|thread|chat)|(?:session|thread|chat)\b.{0,80}\bnot found|not a valid uuid|--resume requires|could not resume|cannot resume|failed to resume|no rollout found|missing rollout path|no session (?:found|with)|does not match any session/i;

const MAX_TURNS = /^(?:error_)?max_turns(?:_exhausted)?$|^turn_limit(?:_exhausted)?$/;

export interface Classified {
  code: FailureCode;
  /** When the provider lets the agent work again (provider_rate_limited only), or null for a back-off. */
  retryAt: Date | null;
  /** The phrase that decided it. */
  evidence: string | null;
}

/** The failure `text` describes (auth first: a limit message never hides a sign-in problem). */
export function classifyFailure(text: string, stopReason: string | null, now = new Date()): Classified {
  if (stopReason && MAX_TURNS.test(stopReason)) return { code: "max_turns", retryAt: null, evidence: stopReason };
  const session = UNKNOWN_SESSION.exec(text);
  if (session) return { code: "unknown_session", retryAt: null, evidence: session[0] };
  const auth = AUTH.exec(text);
  if (auth) return { code: "auth_required", retryAt: null, evidence: auth[0] };
  const limit = LIMIT.exec(text);
  if (limit) return { code: "provider_rate_limited", retryAt: resetTime(text, now), evidence: limit[0] };
  const model = MODEL_NOT_FOUND.exec(text);
  if (model) return { code: "model_not_found", retryAt: null, evidence: model[0] };
  return { code: null, retryAt: null, evidence: null };
}

const CLOCK =
  /(?:resets?|try again|available again|retry)\s+(?:at\s+|after\s+)?(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s*m\.?(?:\s*\(\s*([A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*)\s*\)|\s+([A-Z]{2,5})\b)?/i;
const CLOCK_24 = /(?:resets?|try again)\s+(?:at\s+)?(\d{1,2}):(\d{2})(?!\s*[ap]\.?m)(?:\s*\(\s*([A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*)\s*\)|\s+([A-Z]{2,5})\b)?/i;
const RELATIVE = /(?:retry|try again|resets?)\s+in\s+(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hours?)\b/i;
const ZONE_ABBREVIATIONS: Record<string, string> = {
  UTC: "UTC",
  GMT: "UTC",
  Z: "UTC",
  PST: "America/Los_Angeles",
  PDT: "America/Los_Angeles",
  EST: "America/New_York",
  EDT: "America/New_York",
  CST: "America/Chicago",
  CDT: "America/Chicago",
  MST: "America/Denver",
  MDT: "America/Denver",
  CET: "Europe/Berlin",
  CEST: "Europe/Berlin",
  BST: "Europe/London",
};

/**
 * When the limit `text` names resets: "resets 4pm (America/Chicago)", "try again at 3:15 PM",
 * "resets at 03:15 (UTC)", "retry in 30s" — the next occurrence of that wall-clock time in that zone
 * (this machine's when none is named). Null when it names none.
 */
export function resetTime(text: string, now = new Date()): Date | null {
  const relative = RELATIVE.exec(text);
  if (relative) {
    const n = Number(relative[1]);
    const unit = relative[2].toLowerCase();
    const seconds = unit.startsWith("h") ? n * 3600 : unit.startsWith("m") ? n * 60 : n;
    return new Date(now.getTime() + Math.ceil(seconds) * 1000);
  }
  const clock = CLOCK.exec(text);
  if (clock) {
    let hour = Number(clock[1]) % 12;
    if (clock[3].toLowerCase() === "p") hour += 12;
    return nextWallClock(hour, Number(clock[2] ?? 0), zoneOf(clock[4] ?? clock[5]), now);
  }
  const clock24 = CLOCK_24.exec(text);
  if (clock24 && Number(clock24[1]) < 24) return nextWallClock(Number(clock24[1]), Number(clock24[2]), zoneOf(clock24[3] ?? clock24[4]), now);
  return null;
}

function zoneOf(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const zone = ZONE_ABBREVIATIONS[name.toUpperCase()] ?? name;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

/** Minutes east of UTC that `zone` is at `at`. */
function offsetMinutes(zone: string | undefined, at: number): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((asUtc - Math.floor(at / 1000) * 1000) / 60_000);
}

/** The next moment after `now` when the clock in `zone` shows hour:minute. */
export function nextWallClock(hour: number, minute: number, zone: string | undefined, now = new Date()): Date {
  const local = new Date(now.getTime() + offsetMinutes(zone, now.getTime()) * 60_000);
  for (let day = 0; day < 3; day++) {
    const wall = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + day, hour, minute);
    // Two passes: the offset at the candidate moment (daylight saving may differ from now's).
    let utc = wall - offsetMinutes(zone, wall) * 60_000;
    utc = wall - offsetMinutes(zone, utc) * 60_000;
    if (utc > now.getTime()) return new Date(utc);
  }
  return new Date(now.getTime() + 24 * 3600_000);
}

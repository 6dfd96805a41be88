// Skill audit: a static scan of a package's files. Each rule has a code and a severity; the
// verdict is `fail` if any failing rule matched, else `warning` if any warning matched, else
// `pass`. The rule table is in the README; each rule is unit-tested (test/unit/skills.test.ts).
import { isExecutable, SKILL_LIMITS, type SkillFile } from "./package";
import type { SKILL_AUDIT_VERDICTS } from "../../db/schema/skills";

export const AUDIT_SCAN_VERSION = "1";
export type AuditVerdict = (typeof SKILL_AUDIT_VERDICTS)[number];

export interface AuditFinding {
  code: string;
  severity: "warning" | "fail";
  path: string;
  message: string;
}

interface Rule {
  code: string;
  severity: "warning" | "fail";
  message: string;
  /** Whether the file breaks the rule. */
  test: (file: Pick<SkillFile, "path" | "kind" | "text" | "sizeBytes">) => boolean;
}

const BASE64_CHAR = /[A-Za-z0-9+/]/;
const HEX_CHAR = /[0-9a-f]/;

/** The longest run of characters matching `char` (one linear pass: no regex backtracking on long runs). */
function longestRun(text: string, char: RegExp): number {
  let best = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = char.test(text[i]) ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

const textRule = (pattern: RegExp) => (file: Pick<SkillFile, "text">) => file.text !== null && pattern.test(file.text);

export const AUDIT_RULES: Rule[] = [
  { code: "executable_script", severity: "warning", message: "contains an executable script", test: (f) => isExecutable(f) },
  {
    code: "pipe_to_shell",
    severity: "fail",
    message: "downloads and pipes content straight into a shell",
    test: textRule(/\b(curl|wget|fetch)\b[^\n|]{0,300}\|[ \t]{0,10}(sudo[ \t]{1,10})?(ba|z|k|da)?sh\b/i),
  },
  {
    code: "encoded_payload",
    severity: "fail",
    message: "decodes and runs an encoded or obfuscated payload",
    test: textRule(
      /(base64[ \t]{1,10}(-d|--decode)[^\n|]{0,300}\|[ \t]{0,10}(ba|z)?sh\b)|\beval[ \t]{0,10}\([ \t]{0,10}(atob|Buffer\.from|unescape)[ \t]{0,10}\(|\bexec[ \t]{0,10}\([ \t]{0,10}(base64\.b64decode|codecs\.decode)/i,
    ),
  },
  {
    code: "long_encoded_blob",
    severity: "warning",
    message: "holds a long base64 or hex blob (possibly an obfuscated payload)",
    test: (file) => file.text !== null && (longestRun(file.text, BASE64_CHAR) >= 400 || longestRun(file.text, HEX_CHAR) >= 512),
  },
  {
    code: "secret_exfiltration",
    severity: "fail",
    message: "instructs sending secrets, keys or the environment to another place",
    test: textRule(
      /((send|post|upload|exfiltrate|forward|share|transmit|leak)\b[^\n.]{0,80}\b(api[ _-]?keys?|secrets?|tokens?|credentials?|passwords?|private keys?|\.env|env(ironment)? variables?))|((printenv|\benv\b|cat[ \t]{1,10}~?\/?\.(ssh|aws|env))[^\n]{0,40}\|[ \t]{0,10}(curl|wget|nc)\b)/i,
    ),
  },
  {
    code: "disable_safety",
    severity: "fail",
    message: "tells the agent to ignore its instructions or disable safety checks",
    test: textRule(
      /(ignore|disregard|forget)[ \t]{1,10}(all[ \t]{1,10})?(previous|prior|earlier|your|the system)[ \t]{1,10}(instructions|rules|prompts?)|(disable|bypass|turn off|circumvent)[ \t]{1,10}(the[ \t]{1,10})?(safety|guard ?rails?|security|sandbox|approval)/i,
    ),
  },
  {
    code: "file_too_large",
    severity: "warning",
    message: `is larger than ${SKILL_LIMITS.maxFileBytes / 2} bytes`,
    test: (f) => f.sizeBytes > SKILL_LIMITS.maxFileBytes / 2,
  },
];

export interface AuditResult {
  verdict: AuditVerdict;
  codes: string[];
  findings: AuditFinding[];
  scanVersion: string;
}

export function auditFiles(files: Array<Pick<SkillFile, "path" | "kind" | "text" | "sizeBytes">>): AuditResult {
  const findings: AuditFinding[] = [];
  for (const file of files) {
    for (const rule of AUDIT_RULES) {
      if (rule.test(file)) findings.push({ code: rule.code, severity: rule.severity, path: file.path, message: `${file.path} ${rule.message}` });
    }
  }
  const codes = [...new Set(findings.map((f) => f.code))];
  const verdict: AuditVerdict = findings.some((f) => f.severity === "fail") ? "fail" : findings.length ? "warning" : "pass";
  return { verdict, codes, findings, scanVersion: AUDIT_SCAN_VERSION };
}

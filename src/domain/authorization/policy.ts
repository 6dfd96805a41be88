// Authorization policy blocks (agentVisibility, assignmentPolicy, protectedAgent) read from an
// agent's `permissions`, a project's `executionWorkspacePolicy` or an issue's `executionPolicy`.
// Anything this module cannot evaluate is classified `unknown` and blocks assignment.
import { isRecord } from "../records";

export type PolicyEffect =
  | { kind: "none" }
  /** Private or protected: only an explicit grant (or full trust) may assign. */
  | { kind: "restricted"; explanation: string }
  /** Blocked entirely until an approval flow is attached. */
  | { kind: "requires_approval"; explanation: string }
  /** Unrecognised key or mode: blocked. */
  | { kind: "unknown"; explanation: string };

const BLOCK_NAMES = ["agentVisibility", "assignmentPolicy", "protectedAgent"] as const;
/** Keys allowed directly inside an `authorizationPolicy` object. */
const POLICY_TOP_LEVEL_KEYS = new Set<string>([...BLOCK_NAMES, "managedBy"]);
/** Keys each block may carry; any other key is unknown. */
const BLOCK_KEYS: Record<(typeof BLOCK_NAMES)[number], Set<string>> = {
  agentVisibility: new Set(["mode", "hiddenFromDefaultDirectory"]),
  assignmentPolicy: new Set(["mode", "protectedAgentRequiresApproval"]),
  protectedAgent: new Set(["requiresApproval", "approvalReason"]),
};
const VISIBILITY_MODES = new Set(["discoverable", "private"]);
const ASSIGNMENT_MODES = new Set(["company_default", "protected"]);

/**
 * The policy blocks of a container: blocks written directly in it (`{ assignmentPolicy: {...} }`)
 * and inside a nested `authorizationPolicy` object (whose other keys are checked too).
 */
function collectBlocks(container: Record<string, unknown>): { blocks: Array<[string, unknown]>; unknownKeys: string[] } {
  const blocks: Array<[string, unknown]> = [];
  const unknownKeys: string[] = [];
  for (const name of BLOCK_NAMES) if (name in container) blocks.push([name, container[name]]);
  const nested = container.authorizationPolicy;
  if (nested !== undefined && nested !== null) {
    if (!isRecord(nested)) unknownKeys.push("authorizationPolicy");
    else {
      for (const [key, value] of Object.entries(nested)) {
        if (!POLICY_TOP_LEVEL_KEYS.has(key)) unknownKeys.push(`authorizationPolicy.${key}`);
        else if (key !== "managedBy") blocks.push([key, value]);
      }
    }
  }
  return { blocks, unknownKeys };
}

/** Evaluates one container's policy blocks for task assignment; `label` names it in explanations. */
export function evaluatePolicyContainer(container: unknown, label: string): PolicyEffect {
  if (!isRecord(container)) return { kind: "none" };
  const { blocks, unknownKeys } = collectBlocks(container);
  if (unknownKeys.length) {
    return { kind: "unknown", explanation: `${label} has authorization policy keys that cannot be evaluated: ${unknownKeys.join(", ")}` };
  }
  let requiresApproval = false;
  let restricted: string | null = null;
  for (const [name, block] of blocks) {
    if (block === null || block === undefined) continue;
    if (!isRecord(block)) return { kind: "unknown", explanation: `${label} has a malformed ${name} policy block` };
    const allowed = BLOCK_KEYS[name as (typeof BLOCK_NAMES)[number]];
    const extra = Object.keys(block).filter((k) => !allowed.has(k));
    if (extra.length) return { kind: "unknown", explanation: `${label} has unknown ${name} keys: ${extra.join(", ")}` };
    if (name === "agentVisibility") {
      if (block.mode !== undefined && !(typeof block.mode === "string" && VISIBILITY_MODES.has(block.mode))) {
        return { kind: "unknown", explanation: `${label} has an unsupported agentVisibility mode: ${String(block.mode)}` };
      }
      if (block.mode === "private" || block.hiddenFromDefaultDirectory === true) {
        restricted ??= `${label} is private and needs an explicit assignment grant`;
      }
    } else if (name === "assignmentPolicy") {
      if (block.mode !== undefined && !(typeof block.mode === "string" && ASSIGNMENT_MODES.has(block.mode))) {
        return { kind: "unknown", explanation: `${label} has an unsupported assignmentPolicy mode: ${String(block.mode)}` };
      }
      if (block.protectedAgentRequiresApproval === true) requiresApproval = true;
      if (block.mode === "protected") restricted ??= `${label} is protected and needs an explicit tasks:assign or matching tasks:assign_scope grant`;
    } else if (name === "protectedAgent") {
      if (block.requiresApproval === true) requiresApproval = true;
    }
  }
  if (requiresApproval) return { kind: "requires_approval", explanation: `${label} requires approval before task assignment` };
  if (restricted) return { kind: "restricted", explanation: restricted };
  return { kind: "none" };
}

/** The strongest of several effects: unknown > requires_approval > restricted > none. */
export function combineEffects(effects: PolicyEffect[]): PolicyEffect {
  return (
    effects.find((e) => e.kind === "unknown") ??
    effects.find((e) => e.kind === "requires_approval") ??
    effects.find((e) => e.kind === "restricted") ?? { kind: "none" }
  );
}

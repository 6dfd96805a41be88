// The built-in skills shipped with the service. Agent `desiredSkills` resolve against this set
// (by canonical key or unique slug) until the company skill library exists.
export interface BundledSkill {
  key: string;
  slug: string;
  name: string;
  description: string;
}

export const bundledSkills: BundledSkill[] = [
  {
    key: "service/heartbeat",
    slug: "heartbeat",
    name: "Heartbeat",
    description: "How to run one heartbeat: read the wake context, check out work, report progress and release.",
  },
  {
    key: "service/issues",
    slug: "issues",
    name: "Issues",
    description: "Working with issues: checkout, comments, documents, sub-issues, blockers and hand-offs.",
  },
  {
    key: "service/approvals",
    slug: "approvals",
    name: "Approvals",
    description: "Requesting board approvals (hires, strategy, budget overrides) and acting on their outcome.",
  },
];

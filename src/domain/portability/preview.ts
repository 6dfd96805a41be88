// Import previews: what importing a package would do, writing nothing. Into an existing company,
// its entities decide what is skipped or renamed and company.md is not applied; into a new
// company, the preview shows the company the import would make (company.md's settings, the
// caller's name first) and every entity is created.
import type { Db } from "../../db/client";
import { freeIssuePrefix } from "../companies/create";
import type { ParsedPackage } from "./parse";
import { EMPTY_TARGET, loadTarget, planImport, planView, type CollisionStrategy } from "./plan";

export type PreviewTarget = { mode: "new_company"; name: string | null } | { mode: "existing_company"; companyId: string };

/** The company a new-company import would create, from company.md and the caller's name. */
async function wouldBeCompany(db: Db, pkg: ParsedPackage, givenName: string | null) {
  const name = givenName ?? pkg.company?.name ?? null;
  return {
    name,
    description: pkg.company?.description ?? null,
    brandColor: pkg.company?.brandColor ?? null,
    budgetMonthlyCents: pkg.company?.budgetMonthlyCents ?? 0,
    requireBoardApprovalForNewAgents: pkg.company?.requireBoardApprovalForNewAgents ?? false,
    issuePrefix: name ? await freeIssuePrefix(db, name) : null,
  };
}

export async function previewImport(
  db: Db,
  pkg: ParsedPackage,
  target: PreviewTarget,
  options: { collisionStrategy: CollisionStrategy; secretBindings?: Record<string, string> },
) {
  if (target.mode === "existing_company") {
    const plan = planImport(pkg, await loadTarget(db, target.companyId), options);
    return { target: { mode: target.mode, companyId: target.companyId, name: null }, company: null, ...planView(plan), entities: plan.entities };
  }
  const plan = planImport(pkg, EMPTY_TARGET, { ...options, newCompany: true });
  const company = await wouldBeCompany(db, pkg, target.name);
  if (!company.name) plan.warnings.push("The new company needs a name: give target.newCompanyName or include company.md");
  return { target: { mode: target.mode, companyId: null, name: company.name }, company, ...planView(plan), entities: plan.entities };
}

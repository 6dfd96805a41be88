// The company itself: company.md (name, description, brandColor, budgetMonthlyCents,
// requireBoardApprovalForNewAgents). A company-scoped import does not apply it; an import into a
// new company makes the company from it (src/domain/portability/preview.ts).
import { z } from "zod";
import { markdownWith } from "../format";
import { defineKind } from "./kind";
import { text } from "./fields";

const CompanySchema = z.object({
  name: z.string().trim().min(1).max(200),
  brandColor: text(20),
  budgetMonthlyCents: z.number().int().min(0).nullish(),
  requireBoardApprovalForNewAgents: z.boolean().nullish(),
});

export type PkgCompany = z.infer<typeof CompanySchema> & { description: string | null };

export const company = defineKind<PkgCompany | null>({
  key: "company",
  noun: "company",
  exportPart: () => ({
    write({ company: row, put }) {
      put(
        "company.md",
        markdownWith(
          {
            name: row.name,
            brandColor: row.brandColor,
            budgetMonthlyCents: row.budgetMonthlyCents,
            requireBoardApprovalForNewAgents: row.requireBoardApprovalForNewAgents,
          },
          row.description,
        ),
      );
    },
  }),
  parse(pkg) {
    if (!pkg.has("company.md")) return null;
    const { fields, body } = pkg.markdown("company.md");
    return { ...pkg.check(CompanySchema, fields, "company.md"), description: body };
  },
});

// The API view of a company row.
import type { schema } from "../../db/client";
import { currentMonthSpend } from "../time";

type CompanyRow = typeof schema.companies.$inferSelect;

export const assetContentPath = (assetId: string) => `/api/assets/${assetId}/content`;

export function companyView(row: CompanyRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? null,
    status: row.status,
    pauseReason: row.pauseReason ?? null,
    issuePrefix: row.issuePrefix,
    issueCounter: row.issueCounter,
    budgetMonthlyCents: row.budgetMonthlyCents,
    spentMonthlyCents: currentMonthSpend(row.spentMonthlyCents, row.spentMonth),
    requireBoardApprovalForNewAgents: row.requireBoardApprovalForNewAgents,
    brandColor: row.brandColor ?? null,
    logoAssetId: row.logoAssetId ?? null,
    logoUrl: row.logoAssetId ? assetContentPath(row.logoAssetId) : null,
    archivedAt: row.archivedAt ?? null,
    ...(row.feedbackSharingConsent ? { feedbackSharingConsent: row.feedbackSharingConsent } : {}),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type CompanyView = ReturnType<typeof companyView>;

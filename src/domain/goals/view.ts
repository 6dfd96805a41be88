// The API view of a goal row.
import type { schema } from "../../db/client";

export type GoalRow = typeof schema.goals.$inferSelect;

export function goalView(row: GoalRow) {
  return {
    id: row.id,
    companyId: row.companyId,
    title: row.title,
    description: row.description ?? null,
    level: row.level,
    status: row.status,
    parentId: row.parentId ?? null,
    ownerAgentId: row.ownerAgentId ?? null,
    isCompanyDefault: row.isCompanyDefault,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type GoalView = ReturnType<typeof goalView>;

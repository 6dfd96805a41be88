// The activity list's two answers: the whole array (no limit or cursor), or a page of it.
import type { Schemas } from "./api";

export type ActivityEntry = Schemas["ActivityRecord"];

export const activityEntries = (data: ActivityEntry[] | Schemas["ActivityPage"]): ActivityEntry[] => (Array.isArray(data) ? data : data.activity);

// The company's people — its active users (GET /api/companies/{id}/user-directory, the list made for
// pickers) — shared by the pages that name or pick a person (assignees). Loaded when such a page
// opens, the last list kept meanwhile; no event announces a member change, so each opening asks again.
import { signal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api, call, type Schemas } from "./api";

export type Person = Schemas["UserDirectoryEntry"];

export const people = signal<{ companyId: string; list: Person[] } | undefined>(undefined);
export const peopleError = signal<string | null>(null);

export async function loadPeople(companyId: string) {
  try {
    const list = await call(api.GET("/api/companies/{companyId}/user-directory", { params: { path: { companyId } } }));
    people.value = { companyId, list };
    peopleError.value = null;
  } catch (err) {
    peopleError.value = (err as Error).message;
  }
}

/** The company's people (empty until loaded); asks for them when the calling page opens. */
export function usePeople(companyId: string): Person[] {
  useEffect(() => void loadPeople(companyId), [companyId]);
  const current = people.value;
  return current?.companyId === companyId ? current.list : [];
}

// The company's people — its active users (GET /api/companies/{id}/user-directory, the list made for
// pickers) — shared by the pages that name or pick a person (assignees). Loaded when such a page
// opens (the last list kept meanwhile) and again on member events while it is open.
import { signal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api, call, type Schemas } from "./api";
import { subscribe } from "./live";

export type Person = Schemas["UserDirectoryEntry"];

export const people = signal<{ companyId: string; list: Person[] } | undefined>(undefined);
export const peopleError = signal<string | null>(null);

let loading: { companyId: string; done: Promise<void> } | null = null;

async function fetchPeople(companyId: string) {
  try {
    const list = await call(api.GET("/api/companies/{companyId}/user-directory", { params: { path: { companyId } } }));
    people.value = { companyId, list };
    peopleError.value = null;
  } catch (err) {
    peopleError.value = (err as Error).message;
  }
}

/** Loads the company's people; a load already under way for it is shared (several parts of a page ask at once). */
export function loadPeople(companyId: string): Promise<void> {
  if (loading?.companyId === companyId) return loading.done;
  const done = fetchPeople(companyId).finally(() => {
    if (loading?.done === done) loading = null;
  });
  loading = { companyId, done };
  return done;
}

/** The company's people (empty until loaded), followed while the calling page is open. */
export function usePeople(companyId: string): Person[] {
  useEffect(() => {
    void loadPeople(companyId);
    return subscribe(["member.*"], () => void loadPeople(companyId));
  }, [companyId]);
  const current = people.value;
  return current?.companyId === companyId ? current.list : [];
}

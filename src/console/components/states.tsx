// The three states every page shows: loading, error (the API's `error` message) and empty, and
// `Async`, which picks between them for a resource.
import type { ComponentChildren } from "preact";
import type { Resource } from "../lib/resource";

export function Loading({ what }: { what: string }) {
  return (
    <p class="state" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorMessage({ message, retry }: { message: string; retry?: () => void }) {
  return (
    <div class="error" role="alert">
      <p>{message}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

interface AsyncProps<T> {
  resource: Resource<T>;
  /** "issues", "the dashboard": what is loading. */
  what: string;
  /** Shown instead of the children when the data is empty (an empty list, or when `isEmpty` says so). */
  empty?: ComponentChildren;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ComponentChildren;
}

export function Async<T>({ resource, what, empty, isEmpty, children }: AsyncProps<T>) {
  const { data, error, reload } = resource;
  if (data === undefined) return error ? <ErrorMessage message={error} retry={() => void reload()} /> : <Loading what={what} />;
  const blank = isEmpty ? isEmpty(data) : Array.isArray(data) && data.length === 0;
  return (
    <>
      {error && <ErrorMessage message={error} retry={() => void reload()} />}
      {blank && empty !== undefined ? <Empty>{empty}</Empty> : children(data)}
    </>
  );
}

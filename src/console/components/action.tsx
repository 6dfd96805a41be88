// What a button or form does to the API, and what it says afterwards: `useAction` runs the work
// (busy while it runs), `Feedback` shows the outcome — a notice (role=status) or the API's `error`
// message (role=alert).
import { useState } from "preact/hooks";
import { messageOf } from "../lib/api";

export interface Action {
  busy: boolean;
  error: string | null;
  notice: string;
  /** Runs `work`; on success shows `done` (a message, or one made from the result) and returns the result. */
  run: <T>(work: () => Promise<T>, done?: string | ((result: T) => string)) => Promise<T | undefined>;
  fail: (message: string) => void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const run = async <T,>(work: () => Promise<T>, done?: string | ((result: T) => string)) => {
    setBusy(true);
    setError(null);
    setNotice("");
    try {
      const result = await work();
      if (done) setNotice(typeof done === "string" ? done : done(result));
      return result;
    } catch (err) {
      setError(messageOf(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  const fail = (message: string) => {
    setNotice("");
    setError(message);
  };
  return { busy, error, notice, run, fail };
}

export function Feedback({ action }: { action: Pick<Action, "error" | "notice"> }) {
  return (
    <>
      <p role="status" class="notice">
        {action.notice}
      </p>
      {action.error && (
        <p role="alert" class="error">
          {action.error}
        </p>
      )}
    </>
  );
}

// What a button or form does to the API, and what it says afterwards: `useAction` runs the work
// (busy while it runs), `Feedback` shows the outcome — a notice (role=status) or the API's `error`
// message (role=alert). Work that cannot be undone asks first: `run(work, done, { confirm })` shows
// the question with its two buttons (in `Feedback`) and runs the work only on "yes"; it resolves
// to undefined on "no", or when another of the action's runs starts meanwhile.
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { messageOf } from "../lib/api";

export interface Confirm {
  /** What is asked, e.g. "Terminate Ada? Its keys are revoked and it can never run again." */
  question: string;
  /** The button that goes ahead, e.g. "Terminate Ada". */
  yes: string;
  /** The button that leaves things as they are, e.g. "Keep the agent". */
  no: string;
}

export interface RunOptions {
  /** Ask this first; the work runs only when the user answers yes. */
  confirm?: Confirm;
  /** The error message to show, made from the API's (default: the API's message as it is). */
  failed?: (message: string) => string;
}

/** The question an action is waiting to have answered. */
export interface Confirming extends Confirm {
  answer: (yes: boolean) => void;
}

export interface Action {
  busy: boolean;
  error: string | null;
  notice: string;
  /** The confirmation shown now (a run with `confirm`), or null. */
  confirming: Confirming | null;
  /** Runs `work`; on success shows `done` (a message, or one made from the result) and returns the result. */
  run: <T>(work: () => Promise<T>, done?: string | ((result: T) => string), options?: RunOptions) => Promise<T | undefined>;
  fail: (message: string) => void;
  /** Clears the notice and the error, and answers a pending question with no. */
  reset: () => void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const run = async <T,>(work: () => Promise<T>, done?: string | ((result: T) => string), options: RunOptions = {}) => {
    // Any other run answers a pending question with no.
    confirming?.answer(false);
    let asked: Confirming | null = null;
    if (options.confirm) {
      let answer: (yes: boolean) => void = () => {};
      const answered = new Promise<boolean>((resolve) => (answer = resolve));
      const question: Confirming = { ...options.confirm, answer: (yes) => answer(yes) };
      setConfirming(question);
      if (!(await answered)) {
        setConfirming((current) => (current === question ? null : current));
        return undefined;
      }
      asked = question;
    }
    setBusy(true);
    setError(null);
    setNotice("");
    try {
      const result = await work();
      if (done) setNotice(typeof done === "string" ? done : done(result));
      return result;
    } catch (err) {
      setError(options.failed ? options.failed(messageOf(err)) : messageOf(err));
      return undefined;
    } finally {
      setBusy(false);
      if (asked) setConfirming((current) => (current === asked ? null : current));
    }
  };
  const fail = (message: string) => {
    setNotice("");
    setError(message);
  };
  const reset = () => {
    confirming?.answer(false);
    setNotice("");
    setError(null);
  };
  return { busy, error, notice, confirming, run, fail, reset };
}

/** The action's outcome: its pending question (if any), its notice and its error. */
export function Feedback({ action }: { action: Action }) {
  const confirming = action.confirming;
  return (
    <>
      {confirming && (
        <div class="confirm">
          <p>{confirming.question}</p>
          <button type="button" class="danger" disabled={action.busy} onClick={() => confirming.answer(true)}>
            {confirming.yes}
          </button>{" "}
          <button type="button" disabled={action.busy} onClick={() => confirming.answer(false)}>
            {confirming.no}
          </button>
        </div>
      )}
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

/** A form's last row: the action's feedback, then its submit button (off while it runs) and any other controls. */
export function Submit({ action, label, primary = false, children }: { action: Action; label: string; primary?: boolean; children?: ComponentChildren }) {
  return (
    <>
      <Feedback action={action} />
      <div class="actions">
        <button type="submit" class={primary ? "primary" : undefined} disabled={action.busy}>
          {label}
        </button>
        {children}
      </div>
    </>
  );
}

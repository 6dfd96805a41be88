// How an inbox card decides: its own action (busy, and the API's error on the card), and on success
// the page's notice with the inbox loaded again (the card is gone then).
import { useAction } from "../action";

/** Says `message` on the page and loads the inbox again. */
export type OnDone = (message: string) => Promise<unknown>;

export function useDecision(onDone: OnDone) {
  const action = useAction();
  const decide = (work: () => Promise<unknown>, message: string) =>
    action.run(async () => {
      await work();
      await onDone(message);
    });
  return { action, decide };
}

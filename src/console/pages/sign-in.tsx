// Sign in, or create an account (authenticated mode, with the web session). In local_trusted mode
// the user is the local board already, so the page goes straight on.
import { useState } from "preact/hooks";
import { Redirect } from "../components/redirect";
import { TextField } from "../components/fields";
import { ErrorMessage } from "../components/states";
import { messageOf } from "../lib/api";
import { safeNext } from "../lib/next";
import { session, signIn, signUp } from "../lib/session";
import { useTitle } from "../lib/title";
import type { PageProps } from "../routes";

export default function SignInPage({ query }: PageProps) {
  const [mode, setMode] = useState<"sign-in" | "sign-up">(query.mode === "sign-up" ? "sign-up" : "sign-in");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useTitle(mode === "sign-in" ? "Sign in" : "Create an account", false);
  if (session.value) return <Redirect to={safeNext(query.next)} />;

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const email = String(form.get("email"));
    const password = String(form.get("password"));
    setBusy(true);
    setError(null);
    try {
      if (mode === "sign-in") await signIn(email, password);
      else await signUp(String(form.get("name")), email, password);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="narrow">
      <h1>{mode === "sign-in" ? "Sign in" : "Create an account"}</h1>
      <p>The board console of the Agent Control Plane.</p>
      <form onSubmit={submit} class="stack">
        {mode === "sign-up" && <TextField label="Name" name="name" required autocomplete="name" />}
        <TextField label="Email" name="email" type="email" required autocomplete="email" />
        <TextField
          label="Password"
          name="password"
          type="password"
          required
          minLength={8}
          autocomplete={mode === "sign-in" ? "current-password" : "new-password"}
          hint={mode === "sign-up" ? "At least 8 characters." : undefined}
        />
        {error && <ErrorMessage message={error} />}
        <button type="submit" class="primary" disabled={busy}>
          {mode === "sign-in" ? "Sign in" : "Create account"}
        </button>
      </form>
      <p>
        {mode === "sign-in" ? "No account yet? " : "Have an account? "}
        <button
          type="button"
          class="link"
          onClick={() => {
            setError(null);
            setMode(mode === "sign-in" ? "sign-up" : "sign-in");
          }}
        >
          {mode === "sign-in" ? "Create an account" : "Sign in instead"}
        </button>
      </p>
    </main>
  );
}

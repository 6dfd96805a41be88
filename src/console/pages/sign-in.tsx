// Sign in, or create an account (authenticated mode, with the web session). In local_trusted mode
// the user is the local board already, so the page goes straight on.
import { useState } from "preact/hooks";
import { useAction } from "../components/action";
import { TextField } from "../components/fields";
import { Redirect } from "../components/redirect";
import { ErrorMessage } from "../components/states";
import { submittedForm } from "../lib/form";
import { safeNext } from "../lib/next";
import { session, signIn, signUp } from "../lib/session";
import { useTitle } from "../lib/title";
import type { PageProps } from "../routes";

export default function SignInPage({ query }: PageProps) {
  const [mode, setMode] = useState<"sign-in" | "sign-up">(query.mode === "sign-up" ? "sign-up" : "sign-in");
  const action = useAction();
  useTitle(mode === "sign-in" ? "Sign in" : "Create an account", false);
  if (session.value) return <Redirect to={safeNext(query.next)} />;

  const submit = async (event: Event) => {
    const { form, text } = submittedForm(event);
    // The password as typed (not trimmed).
    const password = String(form.get("password") ?? "");
    await action.run(() => (mode === "sign-in" ? signIn(text("email"), password) : signUp(text("name"), text("email"), password)));
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
        {action.error && <ErrorMessage message={action.error} />}
        <button type="submit" class="primary" disabled={action.busy}>
          {mode === "sign-in" ? "Sign in" : "Create account"}
        </button>
      </form>
      <p>
        {mode === "sign-in" ? "No account yet? " : "Have an account? "}
        <button
          type="button"
          class="link"
          onClick={() => {
            action.reset();
            setMode(mode === "sign-in" ? "sign-up" : "sign-in");
          }}
        >
          {mode === "sign-in" ? "Create an account" : "Sign in instead"}
        </button>
      </p>
    </main>
  );
}

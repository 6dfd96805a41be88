// Replaces the current URL with another (no history entry), once rendered.
import { useEffect } from "preact/hooks";
import { useLocation } from "preact-iso/router";

export function Redirect({ to }: { to: string }) {
  const { route } = useLocation();
  useEffect(() => route(to, true), [to]);
  return null;
}

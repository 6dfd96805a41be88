// Where to go after signing in: only a path of this site, never an open redirect.

export function safeNext(next: string | undefined): string {
  return next?.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

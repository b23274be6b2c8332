/**
 * The login page a URL names: its origin and path, without query or fragment. Sessions, single-flight
 * jobs, credentials and learned flows are keyed by it, not by the origin, because one origin often hosts
 * several applications (`/jira` and `/wiki`, a shop's `/account/login` and `/partner/login`) whose
 * sessions do not sign in to each other. The query and fragment are left out: they carry return
 * addresses and tracking (`?next=/orders`, `#signin`), not another application. The path is kept as
 * sent (`/login` and `/login/` are two pages; servers redirect one to the other).
 */
export function loginPageOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

// The one check, for every test, that a session the service returned really signs in on a fixture site:
// the site's account page, asked with the session's cookies, answers 200 and greets the user by name.
// (Jest's `expect` is a global in the test processes that call these; nothing else does.)
import type { LoginCase } from "./cases";

type Cookie = { name: string; value: string };

/** The account page at `accountUrl`, asked with `cookies`, greets `username`. */
export async function expectGreeted(accountUrl: string, cookies: Cookie[], username: string): Promise<void> {
  const res = await fetch(accountUrl, {
    headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") },
    redirect: "manual",
  });
  expect(res.status).toBe(200);
  expect(await res.text()).toContain(`Welcome, ${username}`);
}

/**
 * For a login case with an account page: the case's session cookie alone signs in (the other cookies a
 * site sets are not what keeps the user signed in). Cases without an account page have nothing to ask.
 */
export async function expectCaseSignedIn(
  sitesUrl: string,
  c: LoginCase,
  cookies: Cookie[],
  username: string,
): Promise<void> {
  if (!c.account) return;
  const sid = cookies.find((k) => k.name === c.session!.cookie);
  expect(sid).toBeDefined();
  await expectGreeted(`${sitesUrl}${c.account}`, [sid!], username);
}

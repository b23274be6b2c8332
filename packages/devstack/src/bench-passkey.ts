import type { Stack } from "./stack";

/**
 * What a site's passkey prompt adds to a login, on the passkey-first page, learned, a new account each run:
 * - `prompted`: username, the passkey page asks the browser for the account's passkey (its authenticator
 *   answers "none" at once), "Try another way", the password;
 * - `unprompted`: the same pages, the passkey page without its request (`?prompt=0`): what the prompt
 *   itself costs is the difference, which should be no more than one round trip;
 * - `withoutPage`: username, then the password (`?passkeyPage=0`): what the site's passkey page costs in all
 *   (one more page load and two clicks, the site's design).
 */
export async function benchPasskeyPrompt(
  stack: Stack,
  key: string,
  runs: number,
  timed: <T>(fn: () => Promise<T>) => Promise<[number, T]>,
): Promise<{ prompted: number[]; unprompted: number[]; withoutPage: number[]; roundTrip: number[] }> {
  let seq = 0;
  const login = async (query: string) => {
    const user = { username: `bench-passkey-${++seq}@example.test`, password: `bench-passkey-pw-${seq}` };
    stack.sites.accounts.addUser(user.username, user.password);
    const res = await fetch(`${stack.gatewayUrl}/v1/login`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({
        domain: `${stack.sites.url.replace("127.0.0.1", "passkeys.localhost")}/cases/passkey-first/login${query}`,
        login_method: "password",
        cred: user,
        useCache: false,
      }),
    });
    if (res.status !== 200) throw new Error(`passkey-first login answered ${res.status}`);
  };
  // One round trip to the site: a page of the same size, fetched from here.
  const roundTrip: number[] = [];
  for (let i = 0; i < runs; i++)
    roundTrip.push((await timed(() => fetch(`${stack.sites.url}/cases/passkey-first/login`).then((r) => r.text())))[0]);
  // With and without the prompt: the same pages, so one learned flow (the first login learns it), and
  // taken in turns, so that whatever else the machine does weighs on both alike.
  await login("");
  const prompted: number[] = [];
  const unprompted: number[] = [];
  for (let i = 0; i < runs; i++) {
    prompted.push((await timed(() => login("")))[0]);
    unprompted.push((await timed(() => login("?prompt=0")))[0]);
  }
  // Without the passkey page: another flow (the three share one login page), learned by its first login.
  await login("?passkeyPage=0");
  const withoutPage: number[] = [];
  for (let i = 0; i < runs; i++) withoutPage.push((await timed(() => login("?passkeyPage=0")))[0]);
  return { prompted, unprompted, withoutPage, roundTrip };
}

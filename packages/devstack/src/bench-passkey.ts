import type { Stack } from "./stack";

/**
 * What a site's passkey prompt adds to a login: the same learned login on the passkey-first page with its
 * prompt (username, the passkey page the browser's authenticator answers "none" at once, "Try another way",
 * the password) and without it (`?prompt=0`: username, then the password), a new account each run. The
 * difference should be about one round trip: the passkey page's load.
 */
export async function benchPasskeyPrompt(
  stack: Stack,
  key: string,
  runs: number,
  timed: <T>(fn: () => Promise<T>) => Promise<[number, T]>,
): Promise<{ prompted: number[]; plain: number[]; roundTrip: number[] }> {
  let seq = 0;
  const login = async (prompt: boolean) => {
    const user = { username: `bench-passkey-${++seq}@example.test`, password: `bench-passkey-pw-${seq}` };
    stack.sites.accounts.addUser(user.username, user.password);
    const res = await fetch(`${stack.gatewayUrl}/v1/login`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ domain: `${stack.sites.url.replace("127.0.0.1", "passkeys.localhost")}/cases/passkey-first/login${prompt ? "" : "?prompt=0"}`, login_method: "password", cred: user, useCache: false }),
    });
    if (res.status !== 200) throw new Error(`passkey-first login answered ${res.status}`);
  };
  const series = async (prompt: boolean) => {
    await login(prompt); // warm-up: the page's flow is learned by then
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push((await timed(() => login(prompt)))[0]);
    return times;
  };
  // One round trip to the site: a page of the same size, fetched from here.
  const roundTrip: number[] = [];
  for (let i = 0; i < runs; i++) roundTrip.push((await timed(() => fetch(`${stack.sites.url}/cases/passkey-first/login`).then((r) => r.text())))[0]);
  return { prompted: await series(true), plain: await series(false), roundTrip };
}

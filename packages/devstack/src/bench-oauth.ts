import type { Stack } from "./stack";

/**
 * OAuth logins through the service on one relying-party site (Northwind Notes, signing in with Acme ID),
 * beside a password login on the same site's own form: an OAuth login that types the provider password
 * (a new provider account each run, so no kept provider session helps), and one that starts from the
 * provider session a previous login kept.
 */
export async function benchOAuth(
  stack: Stack,
  key: string,
  runs: number,
  timed: <T>(fn: () => Promise<T>) => Promise<[number, T]>,
): Promise<{ password: number[]; oauthFirst: number[]; oauthKept: number[] }> {
  const { issuer, sites } = stack.sites.oauth;
  const post = async (url: string, body: unknown, auth?: string) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    return res.status;
  };
  const login = async (body: Record<string, unknown>) => {
    const status = await post(
      `${stack.gatewayUrl}/v1/login`,
      { domain: `${sites.a}/login`, useCache: false, ...body },
      key,
    );
    if (status !== 200) throw new Error(`login answered ${status}`);
  };
  let seq = 0;
  const newAccount = async () => {
    const account = { email: `bench-oauth-${++seq}-${Date.now()}@acme.test`, password: "bench-acme-password" };
    await post(`${issuer}/__fixture/users`, account);
    await post(`${sites.a}/__fixture/links`, { email: account.email, password: "bench-site-password" });
    return account;
  };
  const oauth = (account: { email: string; password: string }) =>
    login({ login_method: "oauth", cred: { provider: "Acme ID", ...account } });
  const series = async (fn: () => Promise<void>) => {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push((await timed(fn))[0]);
    return times;
  };

  const local = await newAccount();
  await login({ login_method: "password", cred: { email: local.email, password: "bench-site-password" } }); // warm-up
  const password = await series(() =>
    login({ login_method: "password", cred: { email: local.email, password: "bench-site-password" } }),
  );
  const oauthFirst: number[] = [];
  for (let i = 0; i < runs; i++) {
    const account = await newAccount();
    oauthFirst.push((await timed(() => oauth(account)))[0]);
  }
  const kept = await newAccount();
  await oauth(kept);
  const oauthKept = await series(() => oauth(kept));
  return { password, oauthFirst, oauthKept };
}

import { startFixtureProxies } from "@authsvc/test-sites";
import type { Stack } from "./stack";

/**
 * What an organization's proxy adds to a login: the same learned login (the classic page, a new account each
 * run so nothing is cached) directly, through an HTTP proxy with Basic credentials and through a SOCKS5 proxy,
 * both on loopback (so the figure is our cost — the door, the tunnel set-up, a context made for the job — not
 * a network's).
 */
export async function benchProxy(
  stack: Stack,
  key: string,
  runs: number,
  timed: <T>(fn: () => Promise<T>) => Promise<[number, T]>,
): Promise<{ direct: number[]; http: number[]; socks5: number[] }> {
  const proxies = await startFixtureProxies();
  try {
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${stack.gatewayUrl}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { id?: string };
      if (res.status !== 200 && res.status !== 201) throw new Error(`${path} answered ${res.status}`);
      return json;
    };
    const http = (await call("/v1/proxies", { url: proxies.http.url })).id!;
    const socks5 = (await call("/v1/proxies", { url: proxies.socks5.url })).id!;
    let seq = 0;
    const login = (proxy?: string) => {
      const user = { username: `bench-proxy-${++seq}@example.test`, password: `bench-proxy-pw-${seq}` };
      stack.sites.accounts.addUser(user.username, user.password);
      return call("/v1/login", {
        domain: `${stack.sites.url}/classic/login`,
        login_method: "password",
        cred: user,
        useCache: false,
        ...(proxy ? { proxy } : {}),
      });
    };
    const series = async (proxy?: string) => {
      await login(proxy); // warm-up (the page's flow is learned by then)
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push((await timed(() => login(proxy)))[0]);
      return times;
    };
    return { direct: await series(), http: await series(http), socks5: await series(socks5) };
  } finally {
    await proxies.close();
  }
}

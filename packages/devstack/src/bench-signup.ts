import type { Stack } from "./stack";

/**
 * Whole signups through the service, each a new account in a mailbox allocated for it: a site that signs
 * the account in at once, one that mails a 6-digit code, and one that mails a link and then wants a login.
 */
export async function benchSignup(
  stack: Stack,
  key: string,
  runs: number,
  timed: <T>(fn: () => Promise<T>) => Promise<[number, T]>,
): Promise<{ instant: number[]; code: number[]; linkThenLogin: number[] }> {
  const signup = async (page: string) => {
    const res = await fetch(`${stack.gatewayUrl}/v1/signup`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        signup_method: "email",
        domain: `${stack.sites.url}/cases/${page}/signup`,
        allocateMailbox: true,
      }),
    });
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`signup on ${page} answered ${res.status}`);
  };
  const series = async (page: string) => {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push((await timed(() => signup(page)))[0]);
    return times;
  };
  return {
    instant: await series("signup-instant"),
    code: await series("signup-code"),
    linkThenLogin: await series("signup-link"),
  };
}

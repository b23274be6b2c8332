import path from "node:path";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import {
  DATA_DIR,
  STACK_START_BOUND_MS,
  deleteRedisPrefix,
  recreateDatabase,
  startStack,
  testStackEnv,
  type Stack,
} from "@authsvc/devstack";
import { LOGIN_CASES, type SeenBrowser } from "@authsvc/test-sites";
import type { SessionResponse } from "@authsvc/contracts";

// The production default, the whole browser (BROWSER_MODE=full), through the whole service. Every other test
// stack drives Chromium's headless shell (TEST_BROWSER_MODE, about 40% less CPU a login), the same Blink and
// DevTools protocol; this stack proves the whole browser's own parts still carry a login to the caller: its
// windows (a context's first page opens one), its renderers for cross-site frames and hosts, and the page a
// site's risk checks read. `TEST_BROWSER_MODE=full npm test` runs every stack so.
let stack: Stack;
let db: Database;
let key: string;

beforeAll(async () => {
  const env = testStackEnv("whole_browser_e2e", { BROWSER_MODE: "full" });
  await recreateDatabase(env.DATABASE_URL!);
  stack = await startStack({ env, apiOnly: true, logs: { dir: path.join(DATA_DIR, "logs", "whole-browser") } });
  db = Database.fromConfig(loadConfig(stack.env), 1);
  key = (await db.apiKeys.create((await db.organizations.create("Whole browser org")).id, "e2e")).key;
}, STACK_START_BOUND_MS);
afterAll(async () => {
  await db?.close();
  await stack?.stop();
  if (stack) await deleteRedisPrefix(stack.env.REDIS_URL!, stack.env.REDIS_PREFIX!);
});

let seq = 0;
async function login(
  url: string,
  password?: string,
): Promise<{ status: number; body: Record<string, unknown>; username: string }> {
  const username = `whole-${++seq}@example.test`;
  stack.sites.accounts.addUser(username, `pw-${seq}`);
  const res = await fetch(`${stack.gatewayUrl}/v1/login`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      domain: url,
      login_method: "password",
      cred: { username, password: password ?? `pw-${seq}` },
      useCache: false,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, username };
}
const loginCase = (name: string) => LOGIN_CASES.find((c) => c.name === name)!;

describe("the whole browser (BROWSER_MODE=full)", () => {
  it.each(["classic", "spa", "iframe-cross-origin", "idp-redirect"])(
    "signs in on %s, and the session it hands back signs in",
    async (name) => {
      const c = loginCase(name);
      const { status, body, username } = await login(c.url(stack.sites.url));
      expect([status, body.error]).toEqual([200, undefined]);
      const session = body as unknown as SessionResponse;
      if (c.session?.storageKey) {
        const origin = session.storageState.origins.find((o) => new URL(o.origin).hostname === c.session!.storageHost);
        expect(origin?.localStorage.map((e) => e.name)).toContain(c.session.storageKey);
      }
      if (c.account) {
        const sid = session.cookies.find((k) => k.name === c.session!.cookie)!;
        const page = await fetch(`${stack.sites.url}${c.account}`, {
          headers: { cookie: `${sid.name}=${sid.value}` },
          redirect: "manual",
        });
        expect([page.status, (await page.text()).includes(`Welcome, ${username}`)]).toEqual([200, true]);
      }
      expect(stack.sites.accounts.attemptsFor(username)).toEqual({ [c.site]: 1 });
    },
  );

  it("reads a refusal as the page says it", async () => {
    const { status, body } = await login(loginCase("classic").url(stack.sites.url), "not-the-password");
    expect([status, (body.error as { code?: string } | undefined)?.code]).toEqual([422, "invalid_credentials"]);
  });

  it("shows a site a browser that is not headless", async () => {
    const { status, username } = await login(`${stack.sites.url}/cases/browser-seen/login`);
    expect(status).toBe(200);
    const { seen } = (await (
      await fetch(`${stack.sites.url}/__fixture/browsers-seen/${encodeURIComponent(username)}`)
    ).json()) as { seen: SeenBrowser[] };
    expect(seen[0]!.userAgent).toMatch(/Chrome\/\d+/);
    expect(seen[0]!.userAgent).not.toContain("Headless");
    expect(seen[0]!.userAgentHeader).toBe(seen[0]!.userAgent);
  });
});

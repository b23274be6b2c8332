import type { Browser, CookieParam } from "puppeteer-core";
import type { Stack } from "./stack";
import type { LoginVariant, RealApp } from "./real-apps/real-app";
import { oneLine } from "./bench-real-table";

/** The service's answers in the real-application bench, and the proof that a session they hold is the account's. */

export interface Answer {
  status: number;
  body: {
    error?: { code: string; message: string };
    cookies?: Array<{
      name: string;
      value: string;
      domain: string;
      path: string;
      expires: number;
      httpOnly: boolean;
      secure: boolean;
      sameSite: "Strict" | "Lax" | "None";
    }>;
    storageState?: { origins: Array<{ origin: string; localStorage: Array<{ name: string; value: string }> }> };
    httpCredentials?: { username: string; password: string };
    userAgent?: string;
  };
  ms: number;
}

export async function post(stack: Stack, key: string, route: string, body: unknown): Promise<Answer> {
  const start = performance.now();
  const res = await fetch(`${stack.gatewayUrl}${route}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", prefer: "wait=170" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(180_000),
  });
  const answer = (await res.json().catch(() => ({}))) as Answer["body"];
  return { status: res.status, body: answer, ms: performance.now() - start };
}

export const serviceLogin = (stack: Stack, key: string, variant: LoginVariant, cred: LoginVariant["cred"]) =>
  post(stack, key, "/v1/login", { domain: variant.loginUrl, login_method: variant.method, cred, useCache: false });

export function describe(a: Answer): string {
  if (a.status === 200 || a.status === 201) return String(a.status);
  const e = a.body.error;
  return e ? `${a.status} ${e.code}: ${oneLine(e.message, 90)}` : `${a.status}`;
}

/**
 * Opens the application's account page in a fresh browser context holding only what the answer gave
 * (cookies, localStorage, HTTP credentials, the User-Agent the session was made with, which some
 * applications bind it to) and asks the application module whether it shows the account.
 */
export async function prove(
  browser: Browser,
  proof: RealApp["proof"],
  session: Answer["body"] | null,
): Promise<boolean> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    if (session?.httpCredentials) await page.authenticate(session.httpCredentials);
    if (session?.userAgent) await page.setUserAgent(session.userAgent);
    const cookies: CookieParam[] = (session?.cookies ?? []).map((c) => ({
      name: c.name,
      value: c.value,
      domain: c.domain,
      path: c.path,
      httpOnly: c.httpOnly,
      secure: c.secure,
      sameSite: c.sameSite,
      ...(c.expires > 0 ? { expires: c.expires } : {}),
    }));
    if (cookies.length) await page.setCookie(...cookies);
    const origins = session?.storageState?.origins ?? [];
    if (origins.length) {
      await page.evaluateOnNewDocument((stored: typeof origins) => {
        for (const o of stored)
          if (o.origin === location.origin)
            for (const { name, value } of o.localStorage) localStorage.setItem(name, value);
      }, origins);
    }
    await page.goto(proof.url, { waitUntil: "load", timeout: 30_000 }).catch(() => undefined);
    // Single-page applications draw the account after their scripts ran and their API answered.
    await page.waitForNetworkIdle({ idleTime: 500, timeout: 10_000 }).catch(() => undefined);
    return await proof.signedIn(page);
  } catch {
    return false;
  } finally {
    await context.close();
  }
}

/** "yes", or "no" with what the answer held: the cookies' names and the localStorage keys (never a value). */
export async function provenText(browser: Browser, proof: RealApp["proof"], session: Answer["body"]): Promise<string> {
  // Twice: on a loaded machine the account page can outlast the first look; a session that is not there fails both.
  if ((await prove(browser, proof, session)) || (await prove(browser, proof, session))) return "yes";
  const cookies = (session.cookies ?? []).map((c) => c.name);
  const keys = (session.storageState?.origins ?? []).flatMap((o) => o.localStorage.map((i) => i.name));
  return `no (cookies: ${cookies.join(", ") || "none"}; localStorage: ${keys.join(", ") || "none"})`;
}

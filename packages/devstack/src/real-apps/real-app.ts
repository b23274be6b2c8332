import type { Page } from "puppeteer-core";
import { parseTotpSecret, totpCode } from "@authsvc/crypto";

/** The shape of an application module of the real-application bench, and the usual shapes of its variants and baselines. */

export interface Account {
  username: string;
  password: string;
  email?: string;
  totpSecret?: string;
}

/** One way to sign in to an application: the URL a caller sends, the credentials and the hand-written baseline. */
export interface LoginVariant {
  /** The case's name in the table ("password", "email as login", "totp"…). */
  label: string;
  loginUrl: string;
  method: "password" | "totp";
  cred: { username?: string; email?: string; password: string; totpSecret?: string };
  /** The baseline: plain Puppeteer that knows the page, signs in and waits for the signed-in page's own marker. */
  baseline(page: Page): Promise<void>;
  /** Also send a wrong password. */
  wrongPassword?: boolean;
  /** The session lives in the Authorization header (HTTP Basic): the baseline's session is these credentials. */
  httpCredentials?: { username: string; password: string };
  /** A page of its own that proves this variant's session (else the application's). */
  proof?: RealApp["proof"];
}

export interface RealApp {
  name: string;
  /** What the application is, and which shapes of the list it covers. */
  about: string;
  covers: string[];
  /** Installs what is missing (Debian packages, an npm project under .data/real-apps/<name>); quick when done. */
  install(): Promise<void>;
  /** Starts the application (and what it needs) on loopback and makes its known account; idempotent. */
  start(): Promise<void>;
  variants: LoginVariant[];
  /** A sign-up page, for POST /v1/signup with a new mailbox of ours; its session is proven like a login's. */
  signup?: { url: string; about: string };
  /** A page only a signed-in account sees, and how to tell it shows the account (not the login page). */
  proof: { url: string; signedIn(page: Page): Promise<boolean> };
}

/** True when a selector matches something on the page. */
export const has = async (page: Page, selector: string) => (await page.$(selector)) !== null;

/** The page's visible text. */
export const textOf = (page: Page) => page.evaluate(() => document.body?.innerText ?? "");

// TOTP, for the baselines: a user's script computes the code as an authenticator app does.

const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** Bytes as base32, the form authenticator apps take a secret in (the applications store hex or bytes). */
export function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

/** The current code of a base32 secret, as an authenticator app shows it. */
export const totp = (secret: string) => totpCode(parseTotpSecret(secret), Date.now());

// The usual shapes of a variant and of its baseline

/** A hand-written form login: open the page, type each field, submit (a click, or Enter), wait for the signed-in marker. */
export function formLogin(
  url: string,
  fields: Array<[selector: string, value: string]>,
  submit: string | "Enter",
  signedIn: string,
): (page: Page) => Promise<void> {
  return async (page) => {
    await page.goto(url);
    for (const [selector, value] of fields) await page.type(selector, value);
    await Promise.all([
      page.waitForNavigation(),
      submit === "Enter" ? page.keyboard.press("Enter") : page.click(submit),
    ]);
    await page.waitForSelector(signedIn);
  };
}

/** An application's password login with its wrong-password case: the first variant of most applications. */
export function passwordLogin(
  loginUrl: string,
  cred: LoginVariant["cred"],
  baseline: LoginVariant["baseline"],
  more: Partial<LoginVariant> = {},
): LoginVariant {
  return { label: "password", loginUrl, method: "password", cred, baseline, wrongPassword: true, ...more };
}

/** A login through HTTP Basic authentication: the baseline answers the browser's prompt; its session is the credentials. */
export function basicAuthLogin(
  url: string,
  account: { username: string; password: string },
  signedIn: (page: Page) => Promise<unknown>,
): LoginVariant {
  return passwordLogin(
    url,
    account,
    async (page) => {
      await page.authenticate(account);
      await page.goto(url);
      await signedIn(page);
    },
    { httpCredentials: account },
  );
}

import {
  cookieHeaderFor,
  loginPageOf,
  type SessionResponse,
  SIGN_OUT_ADDRESS,
  SIGN_OUT_LABELS,
} from "@authsvc/contracts";
import { requestCheckedAddresses, type TargetGuard } from "@authsvc/egress";

/**
 * Whether a session the site gave us still signs in, read without a browser:
 * - `alive`: the page the login ended on, fetched with the session's cookies, shows a sign-out control,
 *   or shows the account's name where a visitor without the cookies is sent away, refused or asked to sign
 *   in; or the login page sends the session on where it keeps a visitor;
 * - `dead`: with the cookies, the site sends us to its login page, answers 401, or shows a password form
 *   and no sign-out control where the account was;
 * - `unknown`: the site did not answer, answered 5xx/429, or looks the same with and without the cookies
 *   (an application that signs in in the browser, from storage): nothing is concluded, and nothing may be
 *   done on it that could lock the account out. A page that differs from a visitor's without showing the
 *   account is not known either (`browserMayTell`: keep-alive's browser check reads it).
 */
export type SessionHealth = {
  health: "alive" | "dead" | "unknown";
  reason: string;
  /** Unknown only because the page's HTML is the same for everyone: a browser, running its scripts, may tell. */
  browserMayTell?: true;
};

export interface SessionCheckTarget {
  session: Pick<SessionResponse, "cookies" | "httpCredentials" | "userAgent">;
  /** Where the login ended, signed in (absent for sessions kept before it was recorded: the login page is fetched). */
  signedInPage?: string;
  /** The credential's login page (origin + path), or its login URL. */
  loginPage: string;
  /** The account's username or email: a page that shows it (and does not show it to a visitor) shows the account. */
  identifier?: string;
}

const MAX_REDIRECTS = 5;
const MAX_BODY_BYTES = 512 * 1024;
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

/** A password input in server-rendered HTML (a login form; a signed-in page shows one only beside its sign-out control). */
const PASSWORD_INPUT = /<input\b[^>]*\btype\s*=\s*["']?password\b/i;
/**
 * A sign-out control, of the shapes and words the login engine reads (SIGN_OUT_LABELS, SIGN_OUT_ADDRESS): a
 * link, form or control whose address or name says so (addresses are English on most sites, whatever their
 * language), a control labelled so (`>Log out<`), or a submit input whose value says so (`<input
 * type="submit" value="Logout">`, a database admin's).
 */
const LABELS = SIGN_OUT_LABELS.join("|");
const SIGN_OUT = new RegExp(
  [
    `<(?:a|form|button|input)\\b[^>]*\\b(?:href|action|formaction|name)\\s*=\\s*["']?[^"'\\s>]*(?:${SIGN_OUT_ADDRESS})`,
    `>\\s*(?:${LABELS})\\s*<`,
    `<input\\b(?=[^>]*\\btype\\s*=\\s*["']?(?:submit|button)\\b)[^>]*\\bvalue\\s*=\\s*["']\\s*(?:${LABELS})\\s*["']`,
  ].join("|"),
  "i",
);

/** What a page shows as served: scripts, styles, templates and comments left out (a script's markup is not on the page). */
const NOT_SHOWN =
  /<script\b[\s\S]*?<\/script\s*>|<style\b[\s\S]*?<\/style\s*>|<template\b[\s\S]*?<\/template\s*>|<!--[\s\S]*?-->/gi;

interface Fetched {
  status: number;
  /** The `WWW-Authenticate` challenge of a 401. */
  authenticate?: string;
  /** Where the redirects ended. */
  url: string;
  body: string;
}

/**
 * Fetches `url` as a browser tab would (redirects followed, each hop's cookies from the session), every
 * host checked by the target guard and connected to at the addresses it checked. Null when the site did
 * not answer (refused, timed out, a host the guard refuses).
 */
async function fetchPage(
  guard: TargetGuard,
  start: string,
  session: SessionCheckTarget["session"] | null,
  timeoutMs: number,
): Promise<Fetched | null> {
  let url = new URL(start);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    const target = await guard.resolve(url.hostname);
    if (!target.allowed) return null;
    const mapped = guard.hostMap.get(url.hostname);
    const cookie = session ? cookieHeaderFor(session, url) : "";
    // The session's own User-Agent: a site that binds its sessions to it signs another one out.
    const headers: Record<string, string> = {
      "user-agent": session?.userAgent ?? USER_AGENT,
      accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8",
    };
    if (cookie) headers.cookie = cookie;
    // A site that signs in by HTTP authentication: its credentials, as a browser sends them again (Basic).
    const basic = session?.httpCredentials;
    if (basic && basic.origin === url.origin)
      headers.authorization = `Basic ${Buffer.from(`${basic.username}:${basic.password}`).toString("base64")}`;
    let answer;
    try {
      answer = await requestCheckedAddresses(url, target.addresses, {
        method: "GET",
        headers,
        timeoutMs,
        maxBodyBytes: MAX_BODY_BYTES,
        port: mapped && !url.port ? mapped.port : undefined,
      });
    } catch {
      return null;
    }
    const location = answer.headers.location;
    if (answer.status >= 300 && answer.status < 400 && location) {
      url = new URL(location, url);
      continue;
    }
    const authenticate = answer.headers["www-authenticate"];
    return {
      status: answer.status,
      url: url.href,
      body: answer.body.replace(NOT_SHOWN, " "),
      authenticate: Array.isArray(authenticate) ? authenticate.join(", ") : authenticate,
    };
  }
  return null;
}

/** Reads a session's health off the site (see SessionHealth); never throws. */
export async function checkSession(
  guard: TargetGuard,
  target: SessionCheckTarget,
  timeoutMs: number,
): Promise<SessionHealth> {
  const loginPage = loginPageOf(target.loginPage);
  const page = target.signedInPage ?? target.loginPage;
  const onLoginPage = loginPageOf(page) === loginPage;
  const withSession = await fetchPage(guard, page, target.session, timeoutMs).catch(() => null);
  if (!withSession) return { health: "unknown", reason: "the site did not answer" };
  const { status } = withSession;
  if (status >= 500 || status === 429 || status === 408)
    return { health: "unknown", reason: `the site answered ${status}` };
  // Refused with the credentials of a site that signs in by HTTP authentication: Digest is not sent here, a refusal of Basic is the site's.
  if (status === 401 && target.session.httpCredentials && !/^\s*basic\b/i.test(withSession.authenticate ?? ""))
    return { health: "unknown", reason: "the site's HTTP authentication is not answered without a browser" };
  if (status === 401) return { health: "dead", reason: "the site answered 401 with the session's cookies" };
  const landed = loginPageOf(withSession.url);
  if (!onLoginPage && landed === loginPage)
    return { health: "dead", reason: "the site sent the session to its login page" };
  if (status >= 400) return { health: "unknown", reason: `the site answered ${status}` };
  const signOut = SIGN_OUT.test(withSession.body);
  const passwordForm = PASSWORD_INPUT.test(withSession.body);
  if (signOut) return { health: "alive", reason: "the page shows a sign-out control" };
  if (passwordForm && !onLoginPage)
    return { health: "dead", reason: "the page the account was signed in on shows a password form" };
  // Neither said so: what does a visitor without the session get? A difference alone proves nothing (a
  // site may answer a revoked session with a "your session expired" page and send a visitor to its login
  // page); with it, the page must show the account itself, or have sent the session on from the login page.
  const visitor = await fetchPage(guard, page, null, timeoutMs).catch(() => null);
  if (!visitor) return { health: "unknown", reason: "the site did not answer a visitor without the session" };
  const visitorLanded = loginPageOf(visitor.url);
  const visitorRefused =
    visitor.status === 401 || visitor.status === 403 || (visitorLanded === loginPage && !onLoginPage);
  const visitorAsked = PASSWORD_INPUT.test(visitor.body) && !passwordForm;
  const differs = visitorRefused || visitorAsked || visitorLanded !== landed;
  const shows = (body: string) =>
    !!target.identifier &&
    target.identifier.length >= 3 &&
    body.toLowerCase().includes(target.identifier.toLowerCase());
  if (differs && shows(withSession.body) && !shows(visitor.body))
    return { health: "alive", reason: "the page shows the account, which a visitor without the session does not get" };
  // The second-tab rule: the login page sends a visitor it knows on (settled there without a form), and one it does not stays.
  if (onLoginPage && landed !== loginPage && !passwordForm && visitorLanded === loginPage)
    return { health: "alive", reason: "the login page sent the session on to another page" };
  if (differs)
    return {
      health: "unknown",
      reason: "the page differs from a visitor's but shows neither a sign-out control nor the account",
      browserMayTell: true,
    };
  return {
    health: "unknown",
    reason: "the page looks the same with and without the session's cookies",
    browserMayTell: true,
  };
}

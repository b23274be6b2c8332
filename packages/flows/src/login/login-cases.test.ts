import { freshTotpCode, newTotpSecret, parseTotpSecret } from "@authsvc/crypto";
import { LOGIN_CASES, type LoginCase } from "@authsvc/test-sites";
import type { SessionResponse } from "@authsvc/contracts";
import { LoginFlowError } from "../flow-error";
import type { LearnedFlow } from "./learned-flow";
import { type PasswordLoginResult, passwordLogin } from "./password-login";
import { useBrowserAndSites } from "../testing/browser-and-sites";
import { RunAhead } from "../testing/run-ahead";

// Every fixture page shape, straight through the engine: detection first, then a replay of what detection
// learned, a wrong password, a wrong one-time code, an unknown username. Each login's session must really
// sign in (the site's account page greets the user when sent it), and each login must have been submitted
// to the site exactly once. The gateway's matrix (apps/gateway/test/login-page-shapes.test.ts) takes one
// case per mechanism through the whole service.
//
// The logins run three at a time, each in a browser context of its own, ahead of the tests that assert
// on them (RunAhead): most of a login is waiting on the page, and one after another this file took 13 minutes.
const env = useBrowserAndSites();
const { guard } = env;
const ahead = new RunAhead(Number(process.env.ENGINE_MATRIX_CONCURRENCY ?? 3));
beforeAll(() => ahead.start());
// A test waits for its own logins, which may have queued behind others on a busy machine.
const CASE_TIMEOUT_MS = 180_000;

type User = { username: string; password: string; totpSecret?: string };

let seq = 0;
function userFor(c: LoginCase): User {
  const user = { username: `cases-${c.name}-${++seq}@example.test`, password: `pw-${seq}-secret`, totpSecret: c.totp ? newTotpSecret() : undefined };
  env.sites.accounts.addUser(user.username, user.password, { locked: c.lockedUser, totpSecret: user.totpSecret });
  return user;
}

function login(c: LoginCase, user: User, learned?: LearnedFlow | null): Promise<PasswordLoginResult> {
  const totp = user.totpSecret ? () => freshTotpCode(parseTotpSecret(user.totpSecret!)) : undefined;
  return env.host.withPage((page) =>
    passwordLogin(
      page,
      { loginUrl: c.url(env.sites.url), identifier: user.username, password: user.password, additionalFields: c.additionalFields, totp },
      { guard, timeoutMs: 30_000, learned },
    ),
  );
}

/** The login attempts the fixture sites counted for a user, per site. */
const attempts = (username: string) => env.sites.accounts.attemptsFor(username);

/** A login that must fail: its error, and the attempts the sites counted once it ended. */
async function failedLogin(c: LoginCase, user: User, learned?: LearnedFlow | null): Promise<{ err: unknown; attempts: Record<string, number> }> {
  const err = await login(c, user, learned).then(() => null, (e: unknown) => e);
  return { err, attempts: attempts(user.username) };
}

function expectFlowError(err: unknown): LoginFlowError {
  expect(err).toBeInstanceOf(LoginFlowError);
  return err as LoginFlowError;
}

const hostnames = (origins: string[]) => origins.map((o) => new URL(o).hostname);

function expectSession(c: LoginCase, session: SessionResponse): void {
  if (c.session?.cookie) {
    expect(session.cookies.find((k) => k.name === c.session!.cookie)).toMatchObject({ domain: c.session.cookieDomain, httpOnly: true });
    expect(hostnames(session.origins)).toContain(c.session.cookieDomain);
  }
  if (c.session?.persistentDays) {
    expect(session.cookies.find((k) => k.name === c.session!.cookie)!.expires).toBeGreaterThan(Date.now() / 1000 + c.session.persistentDays * 86_400);
  }
  for (const other of c.session?.otherCookies ?? []) {
    expect(session.cookies.find((k) => k.name === other.name)).toMatchObject({ domain: other.domain });
    expect(hostnames(session.origins)).toContain(other.domain);
  }
  if (c.session?.storageKey) {
    const origin = session.storageState.origins.find((o) => new URL(o.origin).hostname === c.session!.storageHost);
    expect(origin?.localStorage.map((e) => e.name)).toContain(c.session.storageKey);
  }
}

/** The session really is signed in on the site (for cases with an account page that greets the user). */
async function expectSignedIn(c: LoginCase, session: SessionResponse, username: string): Promise<void> {
  if (!c.account) return;
  const sid = session.cookies.find((k) => k.name === c.session!.cookie)!;
  const res = await fetch(`${env.sites.url}${c.account}`, { headers: { cookie: `${sid.name}=${sid.value}` }, redirect: "manual" });
  expect(res.status).toBe(200);
  expect(await res.text()).toContain(`Welcome, ${username}`);
}

const succeeding = LOGIN_CASES.filter((c) => c.expect === "success");
const refused = LOGIN_CASES.filter((c) => c.expect !== "success");

describe.each(succeeding.map((c) => [c.name, c] as const))("%s", (_name, c) => {
  const signIn = ahead.add(async () => {
    const user = userFor(c);
    const first = await login(c, user);
    const afterFirst = attempts(user.username);
    const second = await login(c, user, first.flow);
    return { user, first, afterFirst, second, afterSecond: attempts(user.username) };
  });
  it("logs in by detection, then again by replaying the learned flow, each session signed in after one attempt", async () => {
    const { user, first, afterFirst, second, afterSecond } = await signIn();
    expect(first.source).toBe("detected");
    expectSession(c, first.session);
    await expectSignedIn(c, first.session, user.username);
    expect(afterFirst).toEqual({ [c.site]: 1 });
    expect(JSON.stringify(first.flow)).not.toContain(user.password);
    expect(second.source).toBe("learned");
    expectSession(c, second.session);
    await expectSignedIn(c, second.session, user.username);
    expect(afterSecond).toEqual({ [c.site]: 2 });
  }, CASE_TIMEOUT_MS);

  if (c.wrongPassword) {
    const wrong = ahead.add(() => failedLogin(c, { ...userFor(c), password: "not-the-password" }));
    it(`answers a wrong password with ${c.wrongPassword}, the site's message, after one attempt`, async () => {
      const { err: thrown, attempts: counted } = await wrong();
      const err = expectFlowError(thrown);
      expect([err.code, err.retryable]).toEqual([c.wrongPassword, false]);
      expect(err.message).toMatch(/\w{3,}/);
      if (c.refusal) expect(err.message).toContain(c.refusal);
      expect(counted).toEqual({ [c.site]: 1 });
    }, CASE_TIMEOUT_MS);
  }
});

describe("TOTP after the password", () => {
  describe.each(LOGIN_CASES.filter((c) => c.wrongCode).map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const wrongCode = ahead.add(() => failedLogin(c, { ...userFor(c), totpSecret: newTotpSecret() }));
    it("reports a code the site refuses (wrong secret) with its words, after one attempt", async () => {
      const { err, attempts: counted } = await wrongCode();
      expect([expectFlowError(err).code, (err as LoginFlowError).message]).toEqual(["verification_failed", `the site refused the one-time code: ${c.wrongCode}`]);
      expect(counted).toEqual({ [c.site]: 1 });
    }, CASE_TIMEOUT_MS);
  });
});

describe("identifier-first pages", () => {
  describe.each(LOGIN_CASES.filter((c) => c.unknownIdentifier).map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const unknown = ahead.add(async () => {
      const { flow } = await login(c, userFor(c));
      const results = [];
      for (const learned of [null, flow]) results.push(await failedLogin(c, { username: `nobody-${++seq}@example.test`, password: "any-password" }, learned));
      return results;
    });
    it("answer an unknown username with invalid_credentials and the site's words, by detection and by a learned flow", async () => {
      for (const { err } of await unknown()) {
        expect([expectFlowError(err).code, (err as LoginFlowError).message, (err as LoginFlowError).retryable]).toEqual(["invalid_credentials", c.unknownIdentifier, false]);
      }
    }, CASE_TIMEOUT_MS);
  });
});

describe.each(refused.map((c) => [c.name, c] as const))("%s", (_name, c) => {
  const run = ahead.add(() => failedLogin(c, userFor(c)));
  it(`ends with ${c.expect}`, async () => {
    const { err, attempts: counted } = await run();
    expect(expectFlowError(err).code).toBe(c.expect);
    // A CAPTCHA the service cannot pass is never submitted: the site counts no attempt.
    if (c.expect === "captcha_blocked") expect(counted).toEqual({});
  }, CASE_TIMEOUT_MS);
});

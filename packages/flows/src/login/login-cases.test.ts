import { freshTotpCode, newTotpSecret, parseTotpSecret } from "@authsvc/crypto";
import { LOGIN_CASES, type LoginCase } from "@authsvc/test-sites";
import { LoginFlowError } from "../flow-error";
import type { LearnedFlow } from "./learned-flow";
import { type PasswordLoginResult, passwordLogin } from "./password-login";
import { useBrowserAndSites } from "../testing/browser-and-sites";

// Every fixture page shape, straight through the engine (the gateway e2e suite covers the same pages
// through the service): detection first, then a replay of what detection learned.
const env = useBrowserAndSites();
const { guard } = env;

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

async function failureOf(promise: Promise<unknown>): Promise<LoginFlowError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(LoginFlowError);
  return err as LoginFlowError;
}

function expectSession(c: LoginCase, result: PasswordLoginResult): void {
  const { session } = result;
  if (c.session?.cookie) {
    expect(session.cookies.find((k) => k.name === c.session!.cookie)).toMatchObject({ domain: c.session.cookieDomain });
  }
  if (c.session?.persistentDays) {
    expect(session.cookies.find((k) => k.name === c.session!.cookie)!.expires).toBeGreaterThan(Date.now() / 1000 + c.session.persistentDays * 86_400);
  }
  for (const other of c.session?.otherCookies ?? []) {
    expect(session.cookies.find((k) => k.name === other.name)).toMatchObject({ domain: other.domain });
  }
  if (c.session?.storageKey) {
    const origin = session.storageState.origins.find((o) => new URL(o.origin).hostname === c.session!.storageHost);
    expect(origin?.localStorage.map((e) => e.name)).toContain(c.session.storageKey);
  }
}

const succeeding = LOGIN_CASES.filter((c) => c.expect === "success");
const refused = LOGIN_CASES.filter((c) => c.expect !== "success");

describe.each(succeeding.map((c) => [c.name, c] as const))("%s", (_name, c) => {
  it("logs in by detection, then again by replaying the learned flow", async () => {
    const user = userFor(c);
    const first = await login(c, user);
    expect(first.source).toBe("detected");
    expectSession(c, first);
    expect(JSON.stringify(first.flow)).not.toContain(user.password);
    const second = await login(c, user, first.flow);
    expect(second.source).toBe("learned");
    expectSession(c, second);
  });

  if (c.wrongPassword) {
    it(`answers a wrong password with ${c.wrongPassword}`, async () => {
      const user = userFor(c);
      const err = await failureOf(login(c, { ...user, password: "not-the-password" }));
      expect([err.code, err.retryable]).toEqual([c.wrongPassword, false]);
      expect(err.message.length).toBeGreaterThan(0);
      if (c.refusal) expect(err.message).toContain(c.refusal);
    });
  }
});

describe("TOTP after the password", () => {
  it.each(LOGIN_CASES.filter((c) => c.wrongCode).map((c) => [c.name, c] as const))("reports a code the site refuses (%s, wrong secret) with its words", async (_name, c) => {
    const user = userFor(c);
    const err = await failureOf(login(c, { ...user, totpSecret: newTotpSecret() }));
    expect([err.code, err.message]).toEqual(["verification_failed", `the site refused the one-time code: ${c.wrongCode}`]);
  });
});

describe("identifier-first pages", () => {
  it.each(LOGIN_CASES.filter((c) => c.unknownIdentifier).map((c) => [c.name, c] as const))("answer an unknown username (%s) with invalid_credentials and the site's words, by detection and by a learned flow", async (_name, c) => {
    const { flow } = await login(c, userFor(c));
    for (const learned of [null, flow]) {
      const err = await failureOf(login(c, { username: `nobody-${++seq}@example.test`, password: "any-password" }, learned));
      expect([err.code, err.message, err.retryable]).toEqual(["invalid_credentials", c.unknownIdentifier, false]);
    }
  });
});

describe.each(refused.map((c) => [c.name, c] as const))("%s", (_name, c) => {
  it(`ends with ${c.expect}`, async () => {
    const user = userFor(c);
    const err = await failureOf(login(c, user));
    expect(err.code).toBe(c.expect);
  });
});

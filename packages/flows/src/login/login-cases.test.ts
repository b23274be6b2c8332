import { expectCaseSignedIn, type LoginCase } from "@authsvc/test-sites";
import type { SessionResponse } from "@authsvc/contracts";
import { CASE_TIMEOUT_MS, MATRIX_CASES, describeCases, useLoginMatrix } from "../testing/login-matrix";

// Every fixture page shape that signs in, straight through the engine: detection first, then a replay of
// what detection learned. Each login's session must really sign in (the site's account page greets the
// user when sent it), and each login must have been submitted to the site exactly once. The refusals
// (a wrong password, a wrong one-time code, an unknown username, what ends without a session) are in
// login-refusals.test.ts; the gateway's matrix (apps/gateway/test/login-page-shapes.test.ts) takes one case
// per mechanism through the whole service.
const { env, ahead, userFor, login, attempts } = useLoginMatrix();

const hostnames = (origins: string[]) => origins.map((o) => new URL(o).hostname);

function expectSession(c: LoginCase, session: SessionResponse): void {
  if (c.session?.cookie) {
    expect(session.cookies.find((k) => k.name === c.session!.cookie)).toMatchObject({
      domain: c.session.cookieDomain,
      httpOnly: true,
    });
    expect(hostnames(session.origins)).toContain(c.session.cookieDomain);
  }
  if (c.session?.persistentDays) {
    expect(session.cookies.find((k) => k.name === c.session!.cookie)!.expires).toBeGreaterThan(
      Date.now() / 1000 + c.session.persistentDays * 86_400,
    );
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

describeCases(
  MATRIX_CASES.filter((c) => c.expect === "success"),
  (c) => {
    const signIn = ahead.add(async () => {
      const user = userFor(c);
      const first = await login(c, user);
      const afterFirst = attempts(user.username);
      const second = await login(c, user, first.flow);
      return { user, first, afterFirst, second, afterSecond: attempts(user.username) };
    });
    it(
      "logs in by detection, then again by replaying the learned flow, each session signed in after one attempt",
      async () => {
        const { user, first, afterFirst, second, afterSecond } = await signIn();
        expect(first.source).toBe("detected");
        expectSession(c, first.session);
        await expectCaseSignedIn(env.sites.url, c, first.session.cookies, user.username);
        expect(afterFirst).toEqual({ [c.site]: 1 });
        expect(JSON.stringify(first.flow)).not.toContain(user.password);
        expect(second.source).toBe("learned");
        expectSession(c, second.session);
        await expectCaseSignedIn(env.sites.url, c, second.session.cookies, user.username);
        expect(afterSecond).toEqual({ [c.site]: 2 });
      },
      CASE_TIMEOUT_MS,
    );
  },
);

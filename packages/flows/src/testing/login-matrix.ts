import { freshTotpCode, newTotpSecret, parseTotpSecret } from "@authsvc/crypto";
import { LOGIN_CASES, type LoginCase } from "@authsvc/test-sites";
import { LoginFlowError } from "../flow-error";
import { type LearnedFlow, parseLearnedFlow } from "../login/learned-flow";
import { type PasswordLoginResult, passwordLogin } from "../login/password-login";
import { FLOW_DEADLINE_MS, useBrowserAndSites } from "./browser-and-sites";
import { RunAhead } from "./run-ahead";

/**
 * The fixture cases the matrix runs: all of them, or those whose names `ENGINE_CASES` matches (a regular
 * expression; the developer's quick loop: `ENGINE_CASES='focus-thief|code-in' npm test -- packages/flows/src/login`),
 * since every case's logins run ahead of the tests whatever `-t` leaves out.
 */
export const MATRIX_CASES: LoginCase[] = process.env.ENGINE_CASES
  ? LOGIN_CASES.filter((c) => new RegExp(process.env.ENGINE_CASES!).test(c.name))
  : LOGIN_CASES;

/** One `describe` per case, named by the case (none when `ENGINE_CASES` selected none of them). */
export function describeCases(cases: LoginCase[], fn: (c: LoginCase) => void): void {
  if (cases.length > 0) describe.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => fn(c));
}

export type MatrixUser = { username: string; password: string; totpSecret?: string };

// A test waits for its own logins, which may have queued behind others on a busy machine.
export const CASE_TIMEOUT_MS = 180_000;

/**
 * Logins a matrix file runs at once. Two: the suite keeps both cores busy anyway, and a login waiting for
 * the CPU beside others still spends CPU by the clock (its page's frames, the engine's polls), so more at
 * once cost more in all. Whole suite from a fresh clone, one run each on the same 2-core machine
 * (2026-12-03): 3 at once 1001 s and 1915 busy core-seconds, 2 at once 941 s and 1820, 1 at once 957 s
 * and 1856 (the matrix then the last to end).
 */
const MATRIX_CONCURRENCY = 2;

/**
 * For a test file of the engine matrix (every fixture page shape, straight through the engine): Chromium
 * and the fixture sites, and logins run two at a time, each in a browser context of its own, ahead of the
 * tests that assert on them (RunAhead; `ENGINE_MATRIX_CONCURRENCY`). The matrix is two files, the sign-ins
 * and the refusals, so that the suite runs them side by side.
 */
export function useLoginMatrix() {
  const env = useBrowserAndSites();
  const ahead = new RunAhead(Number(process.env.ENGINE_MATRIX_CONCURRENCY ?? MATRIX_CONCURRENCY));
  beforeAll(() => ahead.start());
  let seq = 0;

  /** A new account on the case's site (with a TOTP secret where the case asks for a code). */
  function userFor(c: LoginCase): MatrixUser {
    const secret = c.totp ? newTotpSecret() : undefined;
    const user = {
      username: `cases-${c.name}-${++seq}@example.test`,
      password: `pw-${seq}-secret`,
      totpSecret: c.withoutSecret ? undefined : secret,
    };
    env.sites.accounts.addUser(user.username, user.password, { locked: c.lockedUser, totpSecret: secret });
    return user;
  }

  /** A username no account has. */
  const unknownUser = (): MatrixUser => ({ username: `nobody-${++seq}@example.test`, password: "any-password" });

  /**
   * A login; a learned flow goes in as the service keeps it (stored as JSON, read back through
   * parseLearnedFlow), so a flow the store would not give back fails the replay's assertions.
   */
  function login(c: LoginCase, user: MatrixUser, learned?: LearnedFlow | null): Promise<PasswordLoginResult> {
    if (learned) learned = parseLearnedFlow(JSON.parse(JSON.stringify(learned)));
    const totp = user.totpSecret ? () => freshTotpCode(parseTotpSecret(user.totpSecret!)) : undefined;
    return env.host.withPage((page) =>
      passwordLogin(
        page,
        {
          loginUrl: c.url(env.sites.url),
          identifier: user.username,
          password: user.password,
          additionalFields: c.additionalFields,
          totp,
        },
        { guard: env.guard, timeoutMs: FLOW_DEADLINE_MS, learned },
      ),
    );
  }

  /** The login attempts the fixture sites counted for a user, per site. */
  const attempts = (username: string) => env.sites.accounts.attemptsFor(username);

  /** A login that must fail: its error, and the attempts the sites counted once it ended. */
  async function failedLogin(
    c: LoginCase,
    user: MatrixUser,
    learned?: LearnedFlow | null,
  ): Promise<{ err: unknown; attempts: Record<string, number> }> {
    const err = await login(c, user, learned).then(
      () => null,
      (e: unknown) => e,
    );
    return { err, attempts: attempts(user.username) };
  }

  return { env, ahead, userFor, unknownUser, login, attempts, failedLogin };
}

export function expectFlowError(err: unknown): LoginFlowError {
  expect(err).toBeInstanceOf(LoginFlowError);
  return err as LoginFlowError;
}

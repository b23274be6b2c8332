import { type Page, preparePagesOf, TargetGuard } from "@authsvc/browser";
import { EMPTY_FIELD_REFUSAL, startCaptchaProvider } from "@authsvc/test-sites";
import type { CaptchaChallenge, CaptchaSolver } from "../captcha/pass-captcha";
import { twoCaptchaSolver } from "../captcha/two-captcha-solver";
import { type FlowOptions, type PasswordLoginInput, type PasswordLoginResult, passwordLogin } from "./password-login";
import { LoginFlowError } from "../flow-error";
import { SESSION_CHECK_STEP } from "../page/second-look";
import { FLOW_DEADLINE_MS, useBrowserAndSites } from "../testing/browser-and-sites";

const env = useBrowserAndSites();
const { guard } = env;
// The flow's own deadline, generous for a loaded machine (the form wait and the settle have their own caps).
const options = { guard, timeoutMs: FLOW_DEADLINE_MS };

beforeAll(() => env.sites.accounts.addUser("flow-user", "s3cret-pass"));

const login = (page: Page, input: PasswordLoginInput, opts: FlowOptions = options) =>
  passwordLogin(page, input, opts).then((r) => r.session);

async function failureOf(promise: Promise<unknown>): Promise<LoginFlowError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LoginFlowError);
  return err as LoginFlowError;
}

describe("passwordLogin against fixture sites", () => {
  it("logs in to the classic form and returns its HttpOnly session cookie", async () => {
    const state = await env.host.withPage((page) =>
      login(
        page,
        { loginUrl: `${env.sites.url}/classic/login`, identifier: "flow-user", password: "s3cret-pass" },
        options,
      ),
    );
    const sid = state.cookies.find((c) => c.name === "classic_sid");
    expect(sid).toMatchObject({ domain: "127.0.0.1", path: "/", httpOnly: true, secure: false, sameSite: "Lax" });
    expect(sid!.expires).toBeGreaterThan(Date.now() / 1000 + 3000);
    expect(state.cookies.find((c) => c.name === "classic_theme")?.expires).toBe(-1);
    expect(state.origins).toEqual([env.sites.url]);
  });

  it("logs in to the JavaScript app and returns its localStorage token", async () => {
    const state = await env.host.withPage((page) =>
      login(
        page,
        { loginUrl: `${env.sites.url}/spa/login`, identifier: "flow-user", password: "s3cret-pass" },
        options,
      ),
    );
    expect(state.storageState.origins).toEqual([
      { origin: env.sites.url, localStorage: [{ name: "spa_token", value: expect.stringMatching(/.{20,}/) }] },
    ]);
  });

  it.each(["classic", "spa"])("reports the %s site's refusal of a wrong password with its message", async (site) => {
    const err = await failureOf(
      env.host.withPage((page) =>
        login(
          page,
          { loginUrl: `${env.sites.url}/${site}/login`, identifier: "flow-user", password: "wrong" },
          options,
        ),
      ),
    );
    expect(err.code).toBe("invalid_credentials");
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/invalid|incorrect/i);
  });

  it('never answers a site\'s "the password field is empty" as a wrong password: the form lost a field, the credentials were not refused', async () => {
    const err = await failureOf(
      env.host.withPage((page) =>
        login(page, {
          loginUrl: `${env.sites.url}/cases/loses-on-submit/login`,
          identifier: "flow-user",
          password: "s3cret-pass",
        }),
      ),
    );
    expect(err.code).toBe("login_unconfirmed");
    expect(err.message).toContain(EMPTY_FIELD_REFUSAL.password);
  });

  it("waits for a site that takes longer than the verdict window to answer the form's POST, and signs in", async () => {
    // The server holds the POST 11 s, past the 10 s a page has to show its answer: the form still shown then
    // is the page the POST went out from, not the site's answer.
    const state = await env.host.withPage((page) =>
      login(
        page,
        { loginUrl: `${env.sites.url}/slow/login?delayMs=11000`, identifier: "flow-user", password: "s3cret-pass" },
        options,
      ),
    );
    expect(state.cookies.find((c) => c.name === "classic_sid")).toBeDefined();
  });

  it("does not take a notice that was on the login page before submit for a refusal", async () => {
    const state = await env.host.withPage((page) =>
      login(
        page,
        { loginUrl: `${env.sites.url}/notice/login`, identifier: "flow-user", password: "s3cret-pass" },
        options,
      ),
    );
    expect(state.cookies.some((c) => c.name === "classic_sid")).toBe(true);
    const err = await failureOf(
      env.host.withPage((page) =>
        login(page, { loginUrl: `${env.sites.url}/notice/login`, identifier: "flow-user", password: "wrong" }, options),
      ),
    );
    expect([err.code, err.message]).toEqual(["invalid_credentials", "Invalid username or password."]);
  });

  it("does not take a redirect to a formless 'too many attempts' page with new cookies for a login", async () => {
    const err = await failureOf(
      env.host.withPage((page) =>
        login(
          page,
          { loginUrl: `${env.sites.url}/lockout/login`, identifier: "flow-user", password: "wrong" },
          options,
        ),
      ),
    );
    expect(err.code).toBe("account_locked");
    expect(err.message).toMatch(/too many failed attempts/i);
    const state = await env.host.withPage((page) =>
      login(
        page,
        { loginUrl: `${env.sites.url}/lockout/login`, identifier: "flow-user", password: "s3cret-pass" },
        options,
      ),
    );
    expect(state.cookies.some((c) => c.name === "classic_sid")).toBe(true);
  });

  it("reports a username the form's email field will not take, without sending the form", async () => {
    const err = await failureOf(
      env.host.withPage((page) =>
        login(page, {
          loginUrl: `${env.sites.url}/cases/several-forms/login`,
          identifier: "flow-user",
          password: "s3cret-pass",
        }),
      ),
    );
    expect(err.code).toBe("invalid_credentials");
    expect(err.message).toBe("the login form does not accept the username: the field wants an email address");
    expect(env.sites.accounts.attemptsFor("flow-user")["several-forms"]).toBeUndefined();
  });

  it("never types the password into a field a stale learned flow names wrongly; detects afresh instead", async () => {
    const stale = {
      version: 1 as const,
      steps: [
        { action: "type" as const, value: "identifier" as const, frame: "main", path: ['input[name="username"]'] },
        { action: "type" as const, value: "password" as const, frame: "main", path: ['input[name="username"]'] },
        { action: "click" as const, purpose: "submit" as const, frame: "main", path: ["button"] },
      ],
      signedIn: null,
    };
    const typed: string[] = [];
    const result = await env.host.withPage((page) =>
      passwordLogin(
        page,
        { loginUrl: `${env.sites.url}/classic/login`, identifier: "flow-user", password: "s3cret-pass" },
        {
          ...options,
          learned: stale,
          onStep: (step) => typed.push(step),
        },
      ),
    );
    expect(result.source).toBe("relearned");
    expect(typed).not.toContain("replay: type password");
    expect(result.flow?.steps.find((st) => st.action === "type" && st.value === "password")?.path).toEqual([
      'input[name="password"]',
    ]);
  });

  it("tells a page without a login form, a server error and a closed port apart", async () => {
    const run = (url: string) =>
      env.host.withPage((page) => login(page, { loginUrl: url, identifier: "a", password: "b" }, options));
    expect((await failureOf(run(`${env.sites.url}/no-form`))).code).toBe("form_not_found");
    const e500 = await failureOf(run(`${env.sites.url}/errors/500`));
    expect([e500.code, e500.retryable]).toEqual(["target_unreachable", true]);
    expect((await failureOf(run("http://127.0.0.1:9/login"))).code).toBe("target_unreachable");
  });

  it("refuses a target the job's guard does not allow, before any request leaves", async () => {
    const strict = { ...options, guard: new TargetGuard() };
    const err = await failureOf(
      env.host.withPage((page) =>
        login(page, { loginUrl: `${env.sites.url}/classic/login`, identifier: "flow-user", password: "x" }, strict),
      ),
    );
    expect(err.code).toBe("target_not_allowed");
    expect(env.sites.accounts.attemptsFor("flow-user").classic).toBe(5); // the classic, notice and stale-flow logins above
  });
});

describe("password-only logins", () => {
  beforeAll(() => env.sites.accounts.addUser("gate-user", "gate-pass-7"));
  const gate = () => `${env.sites.url}/cases/password-gate/login`;

  it("fills only the password on a page that asks for nothing else, with or without a username given", async () => {
    for (const identifier of ["", "gate-user"]) {
      const state = await env.host.withPage((page) =>
        login(page, { loginUrl: gate(), identifier, password: "gate-pass-7" }),
      );
      expect(state.cookies.some((c) => c.name === "password_gate_sid")).toBe(true);
    }
  });

  it("answers a wrong site password with invalid_credentials", async () => {
    const err = await failureOf(
      env.host.withPage((page) => login(page, { loginUrl: gate(), identifier: "", password: "not-it" })),
    );
    expect([err.code, err.message]).toEqual(["invalid_credentials", "Incorrect password."]);
  });

  it("sends nothing to a page that asks for a username when the request gave none", async () => {
    for (const path of ["/cases/german-form/login", "/cases/two-page/login"]) {
      const err = await failureOf(
        env.host.withPage((page) =>
          login(page, { loginUrl: `${env.sites.url}${path}`, identifier: "", password: "gate-pass-7" }),
        ),
      );
      expect([err.code, err.message]).toEqual([
        "form_not_found",
        "the page asks for a username or email and the request gave none",
      ]);
    }
    expect(env.sites.accounts.attemptsFor("gate-user")).toEqual({ "password-gate": 2 });
  });
});

describe("a CAPTCHA solver (operator-configured; off by default)", () => {
  beforeAll(() => env.sites.accounts.addUser("solver-user", "solver-pass-3"));
  const input = () => ({
    loginUrl: `${env.sites.url}/cases/captcha/login`,
    identifier: "solver-user",
    password: "solver-pass-3",
  });
  // A fake provider: it gets a valid token the way a solving service does, from the site's CAPTCHA service.
  const asked: CaptchaChallenge[] = [];
  const fake: CaptchaSolver = {
    id: "fake",
    async solve(challenge) {
      asked.push(challenge);
      const res = await fetch(new URL("captcha/token", challenge.pageUrl), { method: "POST" });
      return { token: ((await res.json()) as { token: string }).token };
    },
  };

  it("answers the image challenge a ticked checkbox opened, then sends the form once", async () => {
    const state = await env.host.withPage((page) => login(page, input(), { ...options, captchaSolver: fake }));
    expect(state.cookies.some((c) => c.name === "captcha_sid")).toBe(true);
    expect(asked).toEqual([
      { kind: "recaptcha", siteKey: "6Lc_captcha", pageUrl: `${env.sites.url}/cases/captcha/login` },
    ]);
    expect(env.sites.accounts.attemptsFor("solver-user")).toEqual({ captcha: 1 });
  });

  it("passes the challenge through a configured 2captcha-style provider", async () => {
    const provider = await startCaptchaProvider({ key: "operator-key-42", notReadyPolls: 2 });
    try {
      const captchaSolver = twoCaptchaSolver({ url: provider.url, key: "operator-key-42", pollMs: 50 });
      const state = await env.host.withPage((page) => login(page, input(), { ...options, captchaSolver }));
      expect(state.cookies.some((c) => c.name === "captcha_sid")).toBe(true);
      expect(provider.tasks).toEqual([
        {
          method: "userrecaptcha",
          googlekey: "6Lc_captcha",
          pageurl: `${env.sites.url}/cases/captcha/login`,
          json: "1",
        },
      ]);
      expect(env.sites.accounts.attemptsFor("solver-user")).toEqual({ captcha: 2 });
    } finally {
      await provider.close();
    }
  });

  it("stops before sending when the solver cannot answer", async () => {
    const none: CaptchaSolver = { id: "none", solve: async () => null };
    const err = await failureOf(env.host.withPage((page) => login(page, input(), { ...options, captchaSolver: none })));
    expect([err.code, err.message]).toEqual([
      "captcha_blocked",
      "the login form shows a CAPTCHA challenge; the CAPTCHA solver (none) gave no token",
    ]);
    const broken = twoCaptchaSolver({ url: `${env.sites.url}/no-api`, key: "operator-key-42" });
    const failed = await failureOf(
      env.host.withPage((page) => login(page, input(), { ...options, captchaSolver: broken })),
    );
    expect([failed.code, failed.message]).toEqual([
      "captcha_blocked",
      "the login form shows a CAPTCHA challenge; the CAPTCHA solver (2captcha) failed: in.php answered HTTP 404",
    ]);
    expect(env.sites.accounts.attemptsFor("solver-user")).toEqual({ captcha: 2 });
  });
});

describe("session evidence: cookies that rotate on every response are no session", () => {
  const CHECK = SESSION_CHECK_STEP;
  const run = async (
    site: string,
    username: string,
    password: string,
    prepare?: (page: Page) => Promise<void>,
  ): Promise<{ ok?: PasswordLoginResult; err?: unknown; steps: string[] }> => {
    const steps: string[] = [];
    const result = await env.host
      .withPage((page) => {
        if (prepare) preparePagesOf(page.browserContext(), prepare);
        return passwordLogin(
          page,
          { loginUrl: `${env.sites.url}/cases/${site}/login`, identifier: username, password },
          { ...options, onStep: (s) => steps.push(s) },
        );
      })
      .then(
        (r) => ({ ok: r }),
        (err: unknown) => ({ err }),
      );
    return { ...result, steps };
  };

  it("signs in to a Laravel-style site whose session cookie changes on every response, after the second-tab check", async () => {
    env.sites.accounts.addUser("laravel-user@example.test", "laravel-pass");
    // What the worker gives every further page of a job (the credential's browser profile): the check's tab
    // gets it before it loads anything.
    const prepared: string[] = [];
    const { ok, steps } = await run("laravel-session", "laravel-user@example.test", "laravel-pass", async (page) => {
      prepared.push(page.url());
    });
    expect(steps).toContain(CHECK);
    // The check's tab and the visitor's beside it (a context made like the login's), each before it loads anything.
    expect(prepared).toEqual(["about:blank", "about:blank"]);
    const sid = ok!.session.cookies.find((c) => c.name === "laravel_session")!;
    const res = await fetch(`${env.sites.url}/cases/laravel-session/account`, {
      headers: { cookie: `laravel_session=${sid.value}` },
      redirect: "manual",
    });
    expect(await res.text()).toContain("Welcome, laravel-user@example.test");
  });

  it("answers a refusal page without words, beside rotating load-balancer and CSRF cookies, with login_unconfirmed after the check", async () => {
    for (const site of ["refusal-page-signs", "refusal-page-signs-redirect"]) {
      env.sites.accounts.addUser(`${site}@example.test`, "right-pass");
      const { err, steps } = await run(site, `${site}@example.test`, "wrong-pass");
      expect(err).toBeInstanceOf(LoginFlowError);
      expect([(err as LoginFlowError).code, (err as LoginFlowError).message]).toEqual([
        "login_unconfirmed",
        "the login form is gone, but nothing proves a session: the site's login page, opened again, still shows its login form, and no page shows the session anything a visitor does not get",
      ]);
      expect(steps).toContain(CHECK);
    }
  });

  it("takes no second look where a single-page app sends back, with its next request, the token it stored at the sign-in", async () => {
    env.sites.accounts.addUser("app-root@example.test", "right-pass");
    const steps: string[] = [];
    const ok = await env.host.withPage((page) =>
      passwordLogin(
        page,
        {
          loginUrl: `${env.sites.url}/cases/app-root-token/`,
          identifier: "app-root@example.test",
          password: "right-pass",
        },
        { ...options, onStep: (s) => steps.push(s) },
      ),
    );
    expect(ok.session.storageState.origins.flatMap((o) => o.localStorage.map((e) => e.name))).toContain("art_token");
    expect(steps).not.toContain(CHECK);
  });

  it("takes no second look where the page shows the account and a session cookie it did not have", async () => {
    env.sites.accounts.addUser("refusal-page-pl@example.test", "right-pass");
    const { ok, steps } = await run("refusal-page-pl", "refusal-page-pl@example.test", "right-pass");
    expect(ok!.session.cookies.map((c) => c.name)).toContain("refusal_page_pl_sid");
    expect(steps).not.toContain(CHECK);
  });
});

describe("which field the username goes in", () => {
  it("answers form_ambiguous, naming the candidate fields and typing nothing, where several could take it and nothing tells which", async () => {
    const username = "40551234";
    env.sites.accounts.addUser(username, "bank-pass");
    const err = await failureOf(
      env.host.withPage((page) =>
        passwordLogin(
          page,
          {
            loginUrl: `${env.sites.url}/cases/identifier-branch-account/login`,
            identifier: username,
            password: "bank-pass",
          },
          options,
        ),
      ),
    );
    expect([err.code, err.retryable]).toEqual(["form_ambiguous", false]);
    expect(err.details).toEqual([
      { field: "/additionalFields/shiten", message: "支店番号" },
      { field: "/additionalFields/koza", message: "口座番号" },
      { field: "/additionalFields/keiyaku", message: "契約番号" },
    ]);
    expect(env.sites.accounts.attemptsFor(username)).toEqual({});
  });

  it("signs in once the caller names the fields it does not fill, by label or by name", async () => {
    const username = "40559876";
    env.sites.accounts.addUser(username, "bank-pass");
    const namings: Array<Record<string, string>> = [
      { 支店番号: "", 口座番号: "" },
      { shiten: "", koza: "" },
    ];
    for (const additionalFields of namings) {
      const state = await env.host.withPage((page) =>
        login(page, {
          loginUrl: `${env.sites.url}/cases/identifier-branch-account/login`,
          identifier: username,
          password: "bank-pass",
          additionalFields,
        }),
      );
      expect(state.cookies.map((c) => c.name)).toContain("identifier_branch_account_sid");
    }
  });
});

describe("HTTP authentication (a Basic challenge, the browser's own prompt)", () => {
  const run = (site: string, user: string, password: string) =>
    env.host.withPage((page) =>
      passwordLogin(page, { loginUrl: `${env.sites.url}/cases/${site}/admin/`, identifier: user, password }, options),
    );

  it("answers the challenge with the credentials, once, and gives the session with them as httpCredentials", async () => {
    env.sites.accounts.addUser("basic-ada", "basic-pass-1");
    const { session } = await run("http-basic", "basic-ada", "basic-pass-1");
    expect(session.httpCredentials).toEqual({ username: "basic-ada", password: "basic-pass-1", origin: env.sites.url });
    const sid = session.cookies.find((c) => c.name === "http_basic_sid")!;
    const res = await fetch(`${env.sites.url}/cases/http-basic/account`, {
      headers: {
        cookie: `${sid.name}=${sid.value}`,
        authorization: `Basic ${Buffer.from("basic-ada:basic-pass-1").toString("base64")}`,
      },
    });
    expect(await res.text()).toContain("Welcome, basic-ada");
    expect(env.sites.accounts.attemptsFor("basic-ada")).toEqual({ "http-basic": 1 });
  });

  it("signs in where the session lives only in the Authorization header: no cookie, the credentials to send again", async () => {
    env.sites.accounts.addUser("basic-bea", "basic-pass-2");
    const { session } = await run("http-basic-only", "basic-bea", "basic-pass-2");
    expect(session.cookies).toEqual([]);
    expect(session.httpCredentials).toEqual({ username: "basic-bea", password: "basic-pass-2", origin: env.sites.url });
  });

  it("answers a wrong password with invalid_credentials after one attempt, never target_unreachable", async () => {
    env.sites.accounts.addUser("basic-cy", "basic-pass-3");
    const err = await failureOf(run("http-basic", "basic-cy", "not-it"));
    expect([err.code, err.message]).toEqual([
      "invalid_credentials",
      "the site refused the username and password (HTTP 401 to its authentication challenge)",
    ]);
    expect(env.sites.accounts.attemptsFor("basic-cy")).toEqual({ "http-basic": 1 });
  });
});

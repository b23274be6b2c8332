import {
  ageCachedSessions,
  attempts,
  call,
  closeDatabase,
  closeQueues,
  database,
  expireSiteSessions,
  finalQueueJob,
  finishedJob,
  loginBody,
  newSiteUser,
  newTenant,
  sitesUrl,
} from "@authsvc/devstack";

let key: string;
beforeAll(async () => {
  ({ key } = await newTenant("Login org"));
});
afterAll(async () => {
  await closeQueues();
  await closeDatabase();
});

describe("POST /v1/login through the browser", () => {
  it("logs in to a classic form and returns its HttpOnly cookie with all eight fields", async () => {
    const user = await newSiteUser();
    const res = await call("POST", "/v1/login", { key, body: loginBody("classic", user) });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-auth-cache")).toBe("miss");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const sid = res.body.cookies.find((c: any) => c.name === "classic_sid");
    expect(Object.keys(sid).sort()).toEqual([
      "domain",
      "expires",
      "httpOnly",
      "name",
      "path",
      "sameSite",
      "secure",
      "value",
    ]);
    expect(sid).toMatchObject({ domain: "127.0.0.1", path: "/", httpOnly: true, secure: false, sameSite: "Lax" });
    expect(sid.expires).toBeGreaterThan(Math.floor(Date.now() / 1000) + 3000);
    expect(res.body.cookies.find((c: any) => c.name === "classic_theme").expires).toBe(-1);
    expect(res.body.origins).toEqual([sitesUrl()]);
    expect(res.body.storageState.cookies).toEqual(res.body.cookies);
    expect(await attempts(user.username)).toEqual({ classic: 1 });

    // The cookie really is a signed-in session on the site.
    const account = await fetch(`${sitesUrl()}/classic/account`, {
      headers: { cookie: `classic_sid=${sid.value}` },
      redirect: "manual",
    });
    expect(account.status).toBe(200);
    expect(await account.text()).toContain(`Welcome, ${user.username}`);
  });

  it("returns the single-page app's localStorage token in Playwright's storageState shape", async () => {
    const user = await newSiteUser();
    const res = await call("POST", "/v1/login", {
      key,
      body: loginBody("spa", user, { loginMethod: "password", login_method: undefined }),
    });
    expect(res.status).toBe(200);
    const [origin] = res.body.storageState.origins;
    expect(origin.origin).toBe(sitesUrl());
    const token = origin.localStorage.find((e: any) => e.name === "spa_token").value;
    const me = await fetch(`${sitesUrl()}/spa/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toEqual({ user: user.username });
  });

  it("signs in to a page that asks only for a password when the username is sent empty, as agent code often does", async () => {
    // The fixture finds the account by its password: a password of this test's own.
    const user = await newSiteUser(`gate-${Date.now().toString(36)}-pw`);
    const res = await call("POST", "/v1/login", {
      key,
      body: {
        domain: `${sitesUrl()}/cases/password-gate/login`,
        login_method: "password",
        cred: { username: "", password: user.password },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.cookies.map((c: any) => c.name)).toContain("password_gate_sid");
    expect(await attempts(user.username)).toEqual({ "password-gate": 1 });
  });

  it("answers a wrong password with 422 invalid_credentials after exactly one attempt, and never retries it", async () => {
    const user = await newSiteUser();
    const res = await call("POST", "/v1/login", {
      key,
      body: loginBody("classic", { ...user, password: "wrong-password" }),
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "invalid_credentials", message: "Invalid username or password." });
    // The queue's job has ended for good (a retry would hold it delayed, then run it): after one run.
    const job = await finalQueueJob("auth", res.headers.get("x-job-id")!);
    expect(job).toMatchObject({ state: "failed", attemptsMade: 1 });
    expect(await attempts(user.username)).toEqual({ classic: 1 });
  });

  it("serves a cached session without the browser, and logs in afresh with useCache:false", async () => {
    const user = await newSiteUser();
    const first = await call("POST", "/v1/login", { key, body: loginBody("classic", user) });
    expect(first.status).toBe(200);
    const cached = await call("POST", "/v1/login", { key, body: loginBody("classic", user) });
    expect(cached.status).toBe(200);
    expect(cached.headers.get("x-auth-cache")).toBe("hit");
    expect(cached.body).toEqual(first.body);
    expect(await attempts(user.username)).toEqual({ classic: 1 });

    const fresh = await call("POST", "/v1/login", { key, body: loginBody("classic", user, { useCache: false }) });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("x-auth-cache")).toBe("miss");
    expect(await attempts(user.username)).toEqual({ classic: 2 });
    expect(fresh.body.cookies.find((c: any) => c.name === "classic_sid").value).not.toBe(
      first.body.cookies.find((c: any) => c.name === "classic_sid").value,
    );
  });

  it("serves a cached session only while it is known alive: one the site signed out is dropped and the login runs afresh", async () => {
    const own = await newTenant("Session check org");
    const user = await newSiteUser();
    const first = await call("POST", "/v1/login", { key: own.key, body: loginBody("classic", user) });
    expect([first.status, first.headers.get("x-auth-cache")]).toEqual([200, "miss"]);
    expect(first.body.signedInPage).toBeUndefined();

    // Last checked long ago: the hit checks it on the site first, finds it signed in, and serves it.
    expect(await ageCachedSessions(own.orgId)).toBe(1);
    const checked = await call("POST", "/v1/login", { key: own.key, body: loginBody("classic", user) });
    expect([checked.status, checked.headers.get("x-auth-cache"), checked.body]).toEqual([200, "hit", first.body]);

    // The site signs every session of the account out ("sign out everywhere", a password change).
    expect(await expireSiteSessions(user.username)).toBeGreaterThan(0);
    // Checked within SESSION_CHECK_MAX_AGE, it is still served: that is the window the setting allows.
    expect(
      (await call("POST", "/v1/login", { key: own.key, body: loginBody("classic", user) })).headers.get("x-auth-cache"),
    ).toBe("hit");
    await ageCachedSessions(own.orgId);
    const fresh = await call("POST", "/v1/login", { key: own.key, body: loginBody("classic", user) });
    expect([fresh.status, fresh.headers.get("x-auth-cache")]).toEqual([200, "miss"]);
    const sid = (body: any) => body.cookies.find((c: any) => c.name === "classic_sid").value;
    expect(sid(fresh.body)).not.toBe(sid(first.body));
    const account = await fetch(`${sitesUrl()}/classic/account`, {
      headers: { cookie: `classic_sid=${sid(fresh.body)}` },
      redirect: "manual",
    });
    expect(account.status).toBe(200);
    expect(await attempts(user.username)).toEqual({ classic: 2 });
    // The fresh login's session is what the cache serves next.
    const next = await call("POST", "/v1/login", { key: own.key, body: loginBody("classic", user) });
    expect([next.headers.get("x-auth-cache"), sid(next.body)]).toEqual(["hit", sid(fresh.body)]);
  });

  it("does not serve a cached session its check cannot read (an app signed in by a token in storage): it logs in afresh", async () => {
    const own = await newTenant("Session check SPA org");
    const user = await newSiteUser();
    expect((await call("POST", "/v1/login", { key: own.key, body: loginBody("spa", user) })).status).toBe(200);
    expect(
      (await call("POST", "/v1/login", { key: own.key, body: loginBody("spa", user) })).headers.get("x-auth-cache"),
    ).toBe("hit");
    await ageCachedSessions(own.orgId);
    const again = await call("POST", "/v1/login", { key: own.key, body: loginBody("spa", user) });
    expect([again.status, again.headers.get("x-auth-cache")]).toEqual([200, "miss"]);
    expect(await attempts(user.username)).toEqual({ spa: 2 });
  });

  it("never answers a different password from the cache", async () => {
    const user = await newSiteUser();
    expect((await call("POST", "/v1/login", { key, body: loginBody("classic", user) })).status).toBe(200);
    const wrong = await call("POST", "/v1/login", { key, body: loginBody("classic", { ...user, password: "guess" }) });
    expect(wrong.status).toBe(422);
    await finalQueueJob("auth", wrong.headers.get("x-job-id")!); // ended for good: no retry can add an attempt
    expect(await attempts(user.username)).toEqual({ classic: 2 });
  });

  it("keeps cached sessions apart by collection", async () => {
    const user = await newSiteUser();
    expect(
      (await call("POST", "/v1/login", { key, body: loginBody("classic", user, { collectionId: "team-a" }) })).status,
    ).toBe(200);
    const other = await call("POST", "/v1/login", {
      key,
      body: loginBody("classic", user, { collectionId: "team-b" }),
    });
    expect(other.headers.get("x-auth-cache")).toBe("miss");
    expect(await attempts(user.username)).toEqual({ classic: 2 });
  });

  it("runs 20 identical concurrent requests as one browser login", async () => {
    const user = await newSiteUser();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call("POST", "/v1/login", { key, body: loginBody("classic", user, { useCache: false }) }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.headers.get("x-job-id"))).size).toBe(1);
    expect(await attempts(user.username)).toEqual({ classic: 1 });
  });

  it("never answers another organization from the first one's cache or jobs", async () => {
    const user = await newSiteUser();
    const mine = await call("POST", "/v1/login", { key, body: loginBody("classic", user) });
    expect(mine.status).toBe(200);
    const other = await newTenant("Other org");
    const theirs = await call("POST", "/v1/login", { key: other.key, body: loginBody("classic", user) });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get("x-auth-cache")).toBe("miss");
    expect(await attempts(user.username)).toEqual({ classic: 2 });
    const jobId = mine.headers.get("x-job-id")!;
    expect((await call("GET", `/v1/jobs/${jobId}`, { key: other.key })).status).toBe(404);
    expect((await call("GET", `/v1/jobs/${jobId}`, { key })).body.status).toBe("succeeded");
  });

  it("answers 202 with a job id when asked not to wait, and the job carries the session later", async () => {
    const user = await newSiteUser();
    const res = await call("POST", "/v1/login", {
      key,
      body: loginBody("classic", user),
      headers: { prefer: "respond-async" },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      jobId: expect.stringMatching(/^job_/),
      status: expect.stringMatching(/queued|running/),
      eventsUrl: `/v1/jobs/${res.body.jobId}/events`,
    });
    expect(res.headers.get("location")).toBe(`/v1/jobs/${res.body.jobId}`);
    expect(res.headers.get("link")).toBe(`</v1/jobs/${res.body.jobId}/events>; rel="monitor"`);
    const job = await finishedJob(key, res.body.jobId);
    expect(job.status).toBe("succeeded");
    expect(job.result.cookies.some((c: any) => c.name === "classic_sid")).toBe(true);
  });

  it("retries a passing outage of the target with backoff and then logs in", async () => {
    const user = await newSiteUser();
    const res = await call("POST", "/v1/login", {
      key,
      body: { ...loginBody("classic", user), domain: `${sitesUrl()}/flaky/${user.username}/login` },
    });
    expect(res.status).toBe(200);
    const { orgId } = (await database().apiKeys.authenticate(key))!;
    const job = await database().authJobs.find(orgId, res.headers.get("x-job-id")!);
    expect(job).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(await attempts(user.username)).toEqual({ classic: 1 });
  });

  it("counts auth for Prometheus in the gateway and the worker", async () => {
    const user = await newSiteUser();
    expect((await call("POST", "/v1/login", { key, body: loginBody("classic", user) })).status).toBe(200);
    expect((await call("POST", "/v1/login", { key, body: loginBody("classic", user) })).status).toBe(200);
    const gateway = await (await fetch(`${process.env.E2E_GATEWAY_URL}/metrics`)).text();
    expect(gateway).toMatch(/authsvc_login_answers_total\{answer="cache"\} [1-9]/);
    expect(gateway).toMatch(
      /authsvc_http_request_duration_seconds_count\{method="POST",route="\/v1\/login",status="200"\} [1-9]/,
    );
    const worker = await (await fetch(`http://127.0.0.1:${process.env.WORKER_HEALTH_PORT}/metrics`)).text();
    expect(worker).toMatch(/authsvc_login_duration_seconds_count\{outcome="succeeded"\} [1-9]/);
    expect(worker).toMatch(/authsvc_login_duration_seconds_count\{outcome="invalid_credentials"\} [1-9]/);
  });

  it("tells a page without a login form and an unreachable site apart", async () => {
    const noForm = await call("POST", "/v1/login", {
      key,
      body: { ...loginBody("classic", await newSiteUser()), domain: `${sitesUrl()}/no-form` },
    });
    expect(noForm.status).toBe(422);
    expect(noForm.body.error.code).toBe("form_not_found");
    const down = await call("POST", "/v1/login", {
      key,
      body: { ...loginBody("classic", await newSiteUser()), domain: `${sitesUrl()}/errors/500` },
    });
    expect(down.status).toBe(502);
    expect(down.body.error.code).toBe("target_unreachable");
  });
});

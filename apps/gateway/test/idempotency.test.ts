import {
  attempts,
  call,
  closeDatabase,
  closeQueues,
  finalQueueJob,
  loginBody,
  newSiteUser,
  newTenant,
} from "@authsvc/devstack";

// Idempotency-Key: a retried request gets the first one's answer, and never runs the browser twice.
let tenant: Awaited<ReturnType<typeof newTenant>>;
beforeAll(async () => {
  tenant = await newTenant("Idempotency org");
});
afterAll(async () => {
  await closeQueues();
  await closeDatabase();
});

const keyed = (idempotencyKey: string, headers: Record<string, string> = {}) => ({
  "idempotency-key": idempotencyKey,
  ...headers,
});
let seq = 0;
const newKey = () => `retry-${process.pid}-${++seq}-${Date.now()}`;

describe("Idempotency-Key", () => {
  it("answers a retried login from the first one's job: the same session, one browser run", async () => {
    const user = await newSiteUser("idem-pass-1");
    const body = loginBody("classic", user, { useCache: false });
    const key = newKey();
    const first = await call("POST", "/v1/login", { key: tenant.key, body, headers: keyed(key) });
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // The same body with its keys in another order is the same request.
    const reordered = {
      useCache: false,
      cred: { password: user.password, username: user.username },
      login_method: "password",
      domain: body.domain,
    };
    const retry = await call("POST", "/v1/login", { key: tenant.key, body: reordered, headers: keyed(key) });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.headers.get("x-job-id")).toBe(first.headers.get("x-job-id"));
    expect(retry.body.cookies).toEqual(first.body.cookies);
    expect(await attempts(user.username)).toEqual({ classic: 1 });
  });

  it("lets concurrent retries and a retry after a 202 join the one job, and replays its failure as the same error", async () => {
    const user = await newSiteUser("idem-pass-2");
    const key = newKey();
    const body = loginBody("classic", user, { useCache: false });
    const [a, b] = await Promise.all([
      call("POST", "/v1/login", { key: tenant.key, body, headers: keyed(key, { prefer: "respond-async" }) }),
      // Sent just after the first (either may reach the gateway first: both join the one job, and the asserts hold either way).
      new Promise((r) => setTimeout(r, 50)).then(() =>
        call("POST", "/v1/login", { key: tenant.key, body, headers: keyed(key) }),
      ),
    ]);
    expect(a.status).toBe(202);
    expect(b.status).toBe(200);
    expect(b.headers.get("x-job-id")).toBe(a.body.jobId);
    expect(await attempts(user.username)).toEqual({ classic: 1 });

    const wrong = loginBody("classic", { ...user, password: "idem-wrong" }, { useCache: false });
    const failKey = newKey();
    const refused = await call("POST", "/v1/login", { key: tenant.key, body: wrong, headers: keyed(failKey) });
    const again = await call("POST", "/v1/login", { key: tenant.key, body: wrong, headers: keyed(failKey) });
    expect([refused.status, refused.body.error.code]).toEqual([422, "invalid_credentials"]);
    expect([again.status, again.body.error.code]).toEqual([422, "invalid_credentials"]);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("x-job-id")).toBe(refused.headers.get("x-job-id"));
    // The refused job ended for good in the queue: no retry of it can add an attempt later.
    expect(await finalQueueJob("auth", refused.headers.get("x-job-id")!)).toMatchObject({
      state: "failed",
      attemptsMade: 1,
    });
    expect(await attempts(user.username)).toEqual({ classic: 2 });
  });

  it("refuses the key for another body or endpoint, keeps keys per organization, and checks the key's form", async () => {
    const key = newKey();
    const created = await call("POST", "/v1/mailboxes", {
      key: tenant.key,
      body: { label: "idem" },
      headers: keyed(key),
    });
    expect(created.status).toBe(201);
    const replayed = await call("POST", "/v1/mailboxes", {
      key: tenant.key,
      body: { label: "idem" },
      headers: keyed(key),
    });
    expect([replayed.status, replayed.body]).toEqual([201, created.body]);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    const listed = (await call("GET", "/v1/mailboxes", { key: tenant.key })).body.mailboxes.filter(
      (m: { label: string | null }) => m.label === "idem",
    );
    expect(listed).toHaveLength(1);

    const otherBody = await call("POST", "/v1/mailboxes", {
      key: tenant.key,
      body: { label: "another" },
      headers: keyed(key),
    });
    expect([otherBody.status, otherBody.body.error.code]).toEqual([422, "idempotency_mismatch"]);
    const otherEndpoint = await call("POST", "/v1/webhooks", {
      key: tenant.key,
      body: { url: "http://127.0.0.1:9/hook", events: ["credential.failed"] },
      headers: keyed(key),
    });
    expect([otherEndpoint.status, otherEndpoint.body.error.code]).toEqual([422, "idempotency_mismatch"]);

    // Another organization's same key is its own.
    const other = await newTenant("Idempotency other org");
    const theirs = await call("POST", "/v1/mailboxes", {
      key: other.key,
      body: { label: "idem" },
      headers: keyed(key),
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.address).not.toBe(created.body.address);

    for (const bad of ["", "x".repeat(256), "has space"]) {
      const res = await call("POST", "/v1/mailboxes", { key: tenant.key, body: {}, headers: keyed(bad) });
      expect([res.status, res.body.error.code]).toEqual([400, "invalid_request"]);
    }
  });
});

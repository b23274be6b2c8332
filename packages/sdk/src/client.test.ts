import { AuthClient } from "./client";
import { LoginFailedError, NetworkError, RateLimitedError, ServiceError } from "./errors";
import { json, scriptedServer, type Handler } from "./testing/scripted-server";
import type { JobEvent } from "./types";

const session = { cookies: [], origins: ["http://site.test"], storageState: { cookies: [], origins: [] } };
const login = {
  domain: "http://site.test/login",
  login_method: "password" as const,
  cred: { username: "ada", password: "pw" },
};

let server: Awaited<ReturnType<typeof scriptedServer>>;
async function serve(handle: Handler) {
  server = await scriptedServer(handle);
  return new AuthClient({ baseUrl: server.url, apiKey: "pk_test", maxRetries: 3 });
}
afterEach(() => server?.close());

describe("retries", () => {
  it("retries a 503 and a 429 after their Retry-After, sending the same generated Idempotency-Key each time", async () => {
    const plan: Array<[number, unknown, Record<string, string>]> = [
      [503, { error: { code: "service_unavailable", message: "restarting", requestId: "r1" } }, { "retry-after": "0" }],
      [429, { error: { code: "rate_limited", message: "slow down", requestId: "r2" } }, { "retry-after": "0" }],
    ];
    const client = await serve((_req, res) => {
      const [status, body, headers] = plan.shift() ?? [200, session, {}];
      json(res, status, body, headers);
    });
    await expect(client.login(login)).resolves.toEqual(session);
    const keys = server.seen.map((r) => r.headers["idempotency-key"]);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(
      server.seen.every(
        (r) =>
          r.headers.authorization === "Bearer pk_test" &&
          r.url === "/v1/login" &&
          JSON.parse(r.body).cred.username === "ada",
      ),
    ).toBe(true);

    await client.login(login);
    expect(server.seen[3]!.headers["idempotency-key"]).not.toBe(keys[0]); // a new logical call, a new key
  });

  it("uses the caller's key, retries a reset connection, and gives up with the last error", async () => {
    let calls = 0;
    const client = await serve((_req, res) => {
      if (++calls === 1) return res.socket!.destroy();
      json(
        res,
        503,
        { error: { code: "service_unavailable", message: "down", requestId: "r" } },
        { "retry-after": "0" },
      );
    });
    const err = await client.login(login, { idempotencyKey: "my-key-1" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ code: "service_unavailable", status: 503, retryAfter: 0, requestId: "r" });
    expect(server.seen.map((r) => r.headers["idempotency-key"])).toEqual([
      "my-key-1",
      "my-key-1",
      "my-key-1",
      "my-key-1",
    ]);
  });

  it("does not wait out a Retry-After longer than maxRetryDelayMs, and never retries a site's verdict", async () => {
    const client = await serve((req, res) => {
      if (req.url === "/v1/login")
        return json(res, 422, {
          error: { code: "invalid_credentials", message: "The site refused the password.", requestId: "r9" },
        });
      json(
        res,
        429,
        { error: { code: "rate_limited", message: "slow down", requestId: "r8" } },
        { "retry-after": "120" },
      );
    });
    const refused = await client.login(login).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LoginFailedError);
    expect(refused).toMatchObject({ code: "invalid_credentials", status: 422, requestId: "r9" });
    const limited = await client.credentials.list().catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect(limited).toMatchObject({ retryAfter: 120 });
    expect(server.seen).toHaveLength(2);
  });

  it("raises a NetworkError when nothing answers", async () => {
    const client = new AuthClient({ baseUrl: "http://127.0.0.1:9", apiKey: "pk_test", maxRetries: 1 });
    await expect(client.jobs.get("job_x")).rejects.toBeInstanceOf(NetworkError);
  });

  it("cuts off an attempt at timeoutMs and names it", async () => {
    const client = await serve(() => undefined); // never answers
    const err = await client.credentials.get("cred_x", { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).timedOut).toBe(true);
  }, 10_000);
});

const ev = (id: string, type: string, extra: object = {}) =>
  `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify({ type, jobId: "job_1", at: "2026-01-01T00:00:00Z", ...extra })}\n\n`;

describe("a 202 answer", () => {
  it("is followed over the event stream, resumed with Last-Event-ID when it breaks, and ends with the job's session", async () => {
    const client = await serve((req, res) => {
      if (req.url === "/v1/login")
        return json(res, 202, { jobId: "job_1", status: "queued", eventsUrl: "/v1/jobs/job_1/events" });
      if (req.url === "/v1/jobs/job_1/events") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        if (!req.headers["last-event-id"])
          return res.write(ev("1-0", "queued") + ": keep-alive\n\n" + ev("2-0", "started", { attempt: 1 }), () =>
            res.socket!.destroy(),
          );
        return res.end(
          ev("3-0", "mystery_new_type") + ev("4-0", "submitted") + ev("5-0", "succeeded", { credentialId: "cred_1" }),
        );
      }
      if (req.url === "/v1/jobs/job_1")
        return json(res, 200, {
          jobId: "job_1",
          status: "succeeded",
          result: session,
          eventsUrl: "/v1/jobs/job_1/events",
        });
      json(res, 404, { error: { code: "not_found", message: "no", requestId: "r" } });
    });
    const seen: JobEvent[] = [];
    await expect(client.login(login, { respondAsync: true, onProgress: (e) => seen.push(e) })).resolves.toEqual(
      session,
    );
    expect(server.seen[0]!.headers.prefer).toBe("respond-async");
    // A type this SDK does not know is skipped.
    expect(seen.map((e) => e.type)).toEqual(["queued", "started", "submitted", "succeeded"]);
    expect(server.seen.filter((r) => r.url.endsWith("/events")).map((r) => r.headers["last-event-id"])).toEqual([
      undefined,
      "2-0",
    ]);
  });

  it("throws the failed job's error as the synchronous answer would, polling when there is no event stream", async () => {
    let polls = 0;
    const client = await serve((req, res) => {
      if (req.url === "/v1/signup")
        return json(res, 202, { jobId: "job_2", status: "running", eventsUrl: "/v1/jobs/job_2/events" });
      if (req.url.endsWith("/events"))
        return json(res, 404, { error: { code: "not_found", message: "No route", requestId: "r" } });
      const done = ++polls >= 2;
      json(
        res,
        200,
        done
          ? {
              jobId: "job_2",
              status: "failed",
              error: { code: "verification_pending", message: "no mail", credentialId: "cred_9" },
              eventsUrl: "",
            }
          : { jobId: "job_2", status: "running", eventsUrl: "" },
      );
    });
    const err = await client
      .signup({ signup_method: "email", domain: "http://site.test/signup" }, { wait: 5, pollIntervalMs: 10 })
      .catch((e: unknown) => e);
    expect(server.seen[0]!.headers.prefer).toBe("wait=5");
    expect(err).toBeInstanceOf(LoginFailedError);
    expect(err).toMatchObject({
      code: "verification_pending",
      status: 422,
      credentialId: "cred_9",
      jobId: "job_2",
      message: "no mail",
    });
    expect(polls).toBe(2);
  });

  it("stops following when the caller aborts", async () => {
    const client = await serve((req, res) => {
      if (req.url === "/v1/refresh")
        return json(res, 202, { jobId: "job_3", status: "running", eventsUrl: "/v1/jobs/job_3/events" });
      res.writeHead(200, { "content-type": "text/event-stream" }).write(ev("1-0", "queued"));
    });
    const controller = new AbortController();
    const pending = client.refresh(
      { credentialId: "cred_1" },
      { signal: controller.signal, onProgress: () => controller.abort(new Error("caller gave up")) },
    );
    await expect(pending).rejects.toThrow("caller gave up");
  });
});

describe("importing a passkey", () => {
  it("posts the passkey as `import` to the credential's passkeys, with an Idempotency-Key, and answers the passkey kept", async () => {
    const kept = {
      passkey: {
        type: "passkey",
        passkeyId: "pk_1",
        rpId: "site.test",
        createdAt: "2026-12-02T07:00:00.000Z",
        lastUsedAt: null,
      },
      credentialId: "cred_1",
    };
    const client = await serve((_req, res) => json(res, 201, kept));
    const cxf = {
      type: "passkey",
      credentialId: "Y3JlZA",
      rpId: "site.test",
      username: "ada",
      userDisplayName: "Ada",
      userHandle: "YWRh",
      key: "MIGH",
    };
    await expect(client.credentials.importPasskey("cred_1", { cxf })).resolves.toEqual(kept);
    const [req] = server.seen;
    expect([req!.method, req!.url, JSON.parse(req!.body)]).toEqual([
      "POST",
      "/v1/credentials/cred_1/passkeys",
      { import: { cxf } },
    ]);
    expect(req!.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});

import {
  call,
  closeDatabase,
  gatewayUrl,
  loginBody,
  newInboxUser,
  newSiteUser,
  newTenant,
  sitesUrl,
} from "@authsvc/devstack";

// GET /v1/jobs/:id/events: a job's progress as Server-Sent Events, live or late, in order, without a secret.
let tenant: Awaited<ReturnType<typeof newTenant>>;
beforeAll(async () => {
  tenant = await newTenant("Job events org");
});
afterAll(() => closeDatabase());

interface Sse {
  id: string;
  event: string;
  data: any;
}

/** Reads a whole event stream (the server ends it after the job's end) and the raw text, to search for secrets. */
async function readEvents(
  jobId: string,
  headers: Record<string, string> = {},
  key = tenant.key,
): Promise<{ status: number; type: string | null; events: Sse[]; raw: string }> {
  const res = await fetch(`${gatewayUrl()}/v1/jobs/${jobId}/events`, {
    headers: { authorization: `Bearer ${key}`, ...headers },
    signal: AbortSignal.timeout(50_000),
  });
  const raw = await res.text();
  const events = raw
    .split("\n\n")
    .filter((block) => block.split("\n").some((line) => line.startsWith("data: ")))
    .map((block) => {
      const field = (name: string) =>
        block
          .split("\n")
          .find((line) => line.startsWith(`${name}: `))
          ?.slice(name.length + 2) ?? "";
      return { id: field("id"), event: field("event"), data: JSON.parse(field("data")) };
    });
  return { status: res.status, type: res.headers.get("content-type"), events, raw };
}

async function started(body: object): Promise<string> {
  const res = await call("POST", "/v1/login", { key: tenant.key, body, headers: { prefer: "respond-async" } });
  expect(res.status).toBe(202);
  expect(res.headers.get("link")).toBe(`</v1/jobs/${res.body.jobId}/events>; rel="monitor"`);
  return res.body.jobId as string;
}

describe("a job's event stream", () => {
  it("follows a login live from its 202, in order, to its end; a late client gets the same; nothing in it is a secret", async () => {
    const user = await newSiteUser("events-pass-1");
    const jobId = await started(loginBody("classic", user, { useCache: false }));
    const live = await readEvents(jobId);
    expect(live.status).toBe(200);
    expect(live.type).toMatch(/^text\/event-stream/);
    const types = live.events.map((e) => e.event);
    expect(types).toEqual(["queued", "started", "navigating", "form_found", "submitted", "verifying", "succeeded"]);
    for (const e of live.events) expect(e.data).toMatchObject({ type: e.event, jobId, at: expect.any(String) });
    expect(live.events[1]!.data.attempt).toBe(1);
    expect(live.events[2]!.data.origin).toBe(new URL(sitesUrl()).origin);
    expect(live.events.at(-1)!.data.credentialId).toMatch(/^cred_/);
    // Ids grow, so a client can resume after any of them.
    const ids = live.events.map((e) => e.id);
    expect(
      [...ids].sort(
        (a, b) =>
          Number(a.split("-")[0]) - Number(b.split("-")[0]) || Number(a.split("-")[1]) - Number(b.split("-")[1]),
      ),
    ).toEqual(ids);

    const job = (await call("GET", `/v1/jobs/${jobId}`, { key: tenant.key })).body;
    expect(job.status).toBe("succeeded");
    expect(job.result.cookies.length).toBeGreaterThan(0);
    for (const secret of [user.password, ...job.result.cookies.map((c: { value: string }) => c.value)])
      expect(live.raw).not.toContain(secret);

    const late = await readEvents(jobId);
    expect(late.events).toEqual(live.events);
    const resumed = await readEvents(jobId, { "last-event-id": ids[3]! });
    expect(resumed.events.map((e) => e.event)).toEqual(types.slice(4));
  });

  it("ends a refused login with the error the API answers, and tells an emailed code's wait with the inbox address", async () => {
    const user = await newSiteUser("events-pass-2");
    const refused = await started(loginBody("classic", { ...user, password: "not-the-password" }, { useCache: false }));
    const { events, raw } = await readEvents(refused);
    expect(events.at(-1)).toMatchObject({
      event: "failed",
      data: { error: { code: "invalid_credentials", message: expect.any(String) } },
    });
    expect(events.map((e) => e.event)).toContain("submitted");
    expect(raw).not.toContain("not-the-password");

    const address = (await call("POST", "/v1/mailboxes", { key: tenant.key, body: {} })).body.address as string;
    await newInboxUser(address);
    const mailed = await started({
      domain: `${sitesUrl()}/cases/email-code/login`,
      login_method: "otp_email",
      cred: { email: address },
    });
    const code = await readEvents(mailed);
    const types = code.events.map((e) => e.event);
    expect(types.at(-1)).toBe("succeeded");
    const waiting = code.events.find((e) => e.event === "waiting_for_email");
    expect(waiting?.data.address).toBe(address);
    // The code arrived and was typed: the site's answer is read after the wait.
    expect(types.lastIndexOf("verifying")).toBeGreaterThan(types.indexOf("waiting_for_email"));
  });

  it("is the org's own: another org's job is not found, and a Last-Event-ID it never sent is refused", async () => {
    const user = await newSiteUser("events-pass-3");
    const jobId = await started(loginBody("classic", user));
    const other = await newTenant("Job events other org");
    expect((await readEvents(jobId, {}, other.key)).status).toBe(404);
    expect((await readEvents("job_0000000000000000000000")).status).toBe(404);
    const bad = await call("GET", `/v1/jobs/${jobId}/events`, {
      key: tenant.key,
      headers: { "last-event-id": "yesterday" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    await readEvents(jobId);
  });
});

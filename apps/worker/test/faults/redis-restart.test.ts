import { startFaultStack, type FaultStack } from "./fault-stack";
import { STACK_START_BOUND_MS, WAIT_BOUND_MS, waitFor } from "@authsvc/devstack";

// A stack on a Redis of this file's own, killed under a stream of logins and started again on the same
// port, empty (no persistence): the queue, its job schedulers and every key are gone.
let f: FaultStack;
beforeAll(async () => {
  f = await startFaultStack("faults_redis_e2e", { env: { WORKER_CONCURRENCY: "3" } });
}, STACK_START_BOUND_MS);
afterAll(() => f?.close());

interface Sent {
  phase: "before" | "outage" | "reconnecting" | "after";
  sentAt: number;
  answeredAt: number;
  status: number;
  ms: number;
  code?: string;
  retryAfter: string | null;
  jobId?: string;
}

// No answer waits for Redis to come back: one sent while it is away is answered before it is back (the
// bound on every answer is generous for a loaded CI machine; a request that waits for a reconnect or for the
// gateway's 30 s would exceed it).
const ANSWER_BOUND_MS = 20_000;
// Every accepted login ends: the sweep (every SWEEP_MS, fault-stack) queues lost jobs again, then they run,
// three at a time. The bound is for a login that never ends: a loaded 2-core machine took 15-30 s a login.
const FINISH_BOUND_MS = 3 * WAIT_BOUND_MS;
// How long Redis stays away at least: the held login finishes meanwhile, and the load keeps sending.
const OUTAGE_MS = 4000;
// Each phase lasts until this many of the logins sent in it have been answered (not for a set time).
const ANSWERS_PER_PHASE = 3;
// The load sends a login every 500 ms, at most this many in a phase: a loaded machine runs logins slower
// than they come, and an unbounded stream only grew the backlog the test then waits out (over 4 minutes).
const SENT_PER_PHASE = 8;

describe("Redis restarted under load", () => {
  it(`answers 503 + Retry-After while it is away, before it is back (never 500, never a hang), reconnects without a restart, and every accepted login finishes`, async () => {
    const { key } = await f.tenant();
    const pids = [f.stack.processes.gateway.pid, f.stack.processes.worker.pid];
    let n = 0;
    let phase: Sent["phase"] = "before";
    const sent: Promise<Sent>[] = [];
    const answered: Sent[] = [];
    const sentLog: { phase: Sent["phase"]; sentAt: number }[] = [];
    const answeredIn = (p: Sent["phase"]) => answered.filter((a) => a.phase === p).length;
    const send = () => {
      if (sentLog.filter((s) => s.phase === phase).length >= SENT_PER_PHASE) return;
      const username = `load-${++n}`;
      f.stack.sites.accounts.addUser(username, "pw-load");
      const at = phase;
      const sentAt = Date.now();
      sentLog.push({ phase: at, sentAt });
      sent.push(
        f
          .post(
            "/v1/login",
            key,
            {
              domain: `${f.stack.sites.url}/slow/login?delayMs=500`,
              login_method: "password",
              cred: { username, password: "pw-load" },
            },
            { prefer: "respond-async" },
          )
          .then(
            (res) => ({
              phase: at,
              sentAt,
              answeredAt: Date.now(),
              status: res.status,
              ms: res.ms,
              code: res.body?.error?.code,
              retryAfter: res.headers.get("retry-after"),
              jobId: res.body?.jobId,
            }),
            // No answer at all (the gateway gone): status 0 fails the assertions below with what happened.
            (err: Error) => ({
              phase: at,
              sentAt,
              answeredAt: Date.now(),
              status: 0,
              ms: Date.now() - sentAt,
              code: `${err.message}: ${String(err.cause)}`,
              retryAfter: null,
            }),
          )
          .then((a) => {
            answered.push(a);
            return a;
          }),
      );
    };
    const load = setInterval(send, 500);

    // A request that waits while its login finishes with Redis away: its end is never published, the
    // waiter finds it in the database.
    f.stack.sites.accounts.addUser("waits-through", "pw-wait");
    f.stack.sites.gates.close("redis");
    const waiting = f.post("/v1/login", key, {
      domain: `${f.stack.sites.url}/held/login?gate=redis&hold=submit`,
      login_method: "password",
      cred: { username: "waits-through", password: "pw-wait" },
    });
    await waitFor("the waiting login at the site", () => f.stack.sites.gates.held("redis") === 1);

    // Logins accepted before the outage (a state, not a pause: a loaded machine sends and answers them later).
    await waitFor("logins answered before the outage", () => answeredIn("before") >= ANSWERS_PER_PHASE);
    const killedAt = Date.now();
    await f.redis.kill();
    phase = "outage";
    f.stack.sites.gates.open("redis");
    // The outage lasts OUTAGE_MS (its length is the scenario, not a wait for something), and at least until
    // logins sent during it were answered: the 503s asserted below.
    const outageFrom = Date.now();
    await waitFor(
      "logins answered during the outage",
      () => answeredIn("outage") >= 2 && Date.now() - outageFrom >= OUTAGE_MS,
    );
    // Every login sent in the outage so far is answered while Redis is still away: none waits for it to come back.
    const cutoff = Date.now();
    const before = (list: { phase: Sent["phase"]; sentAt: number }[]) =>
      list.filter((a) => a.phase === "outage" && a.sentAt < cutoff).length;
    await waitFor(
      "every login sent during the outage answered before Redis is back",
      () => before(answered) === before(sentLog),
    );
    const restartedAt = Date.now();
    await f.redis.start();
    // Back once the gateway says so (its connections retry every second at most); a request sent in between may still see the outage.
    phase = "reconnecting";
    await waitFor("the gateway ready again", async () => (await fetch(`${f.stack.gatewayUrl}/readyz`)).status === 200, {
      everyMs: 200,
    });
    phase = "after";
    await waitFor("logins answered after the reconnect", () => answeredIn("after") >= ANSWERS_PER_PHASE);
    clearInterval(load);
    const answers = await Promise.all(sent);

    expect((await waiting).status).toBe(200);
    for (const a of answers) {
      expect(a.ms).toBeLessThan(ANSWER_BOUND_MS);
      if (a.status === 503)
        expect(a).toMatchObject({ code: "service_unavailable", retryAfter: expect.stringMatching(/^\d+$/) });
      else expect(a).toMatchObject({ status: 202, jobId: expect.any(String) });
    }
    expect(answers.filter((a) => a.phase === "outage").map((a) => a.status)).toContain(503);
    // (At or before: the last answer may land in the same millisecond as the restart that followed it.)
    for (const a of answers.filter((a) => a.phase === "outage" && a.sentAt < cutoff))
      expect(a.answeredAt).toBeLessThanOrEqual(restartedAt);
    // A request still in flight when Redis died may rightly be a 503 (on a loaded machine a login's start takes
    // a few hundred ms); one answered before, or sent once the gateway was ready again, never is.
    expect(
      answers
        .filter((a) => (a.phase === "before" && a.answeredAt < killedAt) || a.phase === "after")
        .map((a) => a.status),
    ).not.toContain(503);

    // Every login that was accepted, before or after, ends signed in; nothing was restarted.
    const accepted = answers.filter((a) => a.status === 202).map((a) => a.jobId!);
    expect(accepted.length).toBeGreaterThan(5);
    const statuses = await waitFor(
      "every accepted login finished",
      async () => {
        const jobs = await Promise.all(
          accepted.map(async (id) => (await f.get(`/v1/jobs/${id}`, key)).body as { status: string; error?: unknown }),
        );
        return jobs.every((j) => j.status === "succeeded" || j.status === "failed") ? jobs : null;
      },
      { timeoutMs: FINISH_BOUND_MS, everyMs: 1000 },
    );
    // (The whole ending of each, so a failure says which login failed and why.)
    expect(statuses.filter((j) => j.status !== "succeeded")).toEqual([]);
    expect([f.stack.processes.gateway.pid, f.stack.processes.worker.pid]).toEqual(pids);
    expect(f.stack.processes.worker.exitCode).toBeNull();
    expect((await fetch(`${f.stack.gatewayUrl}/readyz`)).status).toBe(200);
    // Each user's password reached the site once (a requeued job had not run), once no run of any of them is
    // left in the queue: each ended there for good, or is gone with the Redis that was lost (its record ended, no
    // sweep queues it again).
    await waitFor(
      "no run of the accepted logins left in the queue",
      async () => {
        const states = await Promise.all(
          accepted.map(async (id) => {
            const job = await f.queue.getJob(id);
            return job ? job.getState() : "missing";
          }),
        );
        return states.every((s) => s === "completed" || s === "failed" || s === "missing");
      },
      { everyMs: 200 },
    );
    for (let i = 1; i <= n; i++)
      expect(f.stack.sites.accounts.attemptsFor(`load-${i}`).slow ?? 0).toBeLessThanOrEqual(1);
  }, 600_000);
});

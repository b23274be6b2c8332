import { startFaultStack, type FaultStack } from "./fault-stack";
import { STACK_START_BOUND_MS, WAIT_BOUND_MS, waitFor } from "@authsvc/devstack";

// A stack on a PostgreSQL of this file's own, stopped (immediate mode: connections drop as in a crash or a
// failover) and started again with logins in flight; then its gateway is killed and started again.
let f: FaultStack;
beforeAll(async () => {
  f = await startFaultStack("faults_pg_e2e", { env: { WORKER_CONCURRENCY: "3" } });
}, STACK_START_BOUND_MS);
afterAll(() => f?.close());

const slowLogin = (username: string) => ({
  domain: `${f.stack.sites.url}/slow/login?delayMs=1500`,
  login_method: "password",
  cred: { username, password: "pw" },
});

/** Polls GET /v1/jobs/:id until every job has ended; returns each job as the API shows it. */
async function finished(key: string, ids: string[], timeoutMs: number): Promise<any[]> {
  return waitFor(
    "every job ended",
    async () => {
      const jobs = await Promise.all(ids.map(async (id) => (await f.get(`/v1/jobs/${id}`, key)).body));
      return jobs.every((j) => j.status === "succeeded" || j.status === "failed") ? jobs : null;
    },
    { timeoutMs, everyMs: 1000 },
  );
}

// Jobs that lost their run to the outage end through their retries or the sweep (every SWEEP_MS, fault-stack).
const END_BOUND_MS = 2 * WAIT_BOUND_MS;
// How long PostgreSQL stays away: the scenario's length (runs in flight must wait it out), not a wait for something.
const OUTAGE_MS = 3000;

describe("PostgreSQL restarted with logins in flight", () => {
  it(
    `answers 503 + Retry-After while it is away; the logins in flight wait it out and every one is retrievable by id and succeeded, none left running`,
    async () => {
      const { key, orgId } = await f.tenant();
      const users = ["pg-1", "pg-2", "pg-3", "pg-4"];
      for (const u of users) f.stack.sites.accounts.addUser(u, "pw");
      // One login is at the site with its password when the database goes away.
      f.stack.sites.accounts.addUser("pg-held", "pw");
      f.stack.sites.gates.close("pg");
      const held = await f.post(
        "/v1/login",
        key,
        {
          domain: `${f.stack.sites.url}/held/login?gate=pg&hold=submit`,
          login_method: "password",
          cred: { username: "pg-held", password: "pw" },
        },
        { prefer: "respond-async" },
      );
      const accepted = await Promise.all(
        users.map((u) => f.post("/v1/login", key, slowLogin(u), { prefer: "respond-async" })),
      );
      expect([held, ...accepted].map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
      await waitFor("the held login at the site", () => f.stack.sites.gates.held("pg") === 1);

      await f.postgres.stop();
      const stoppedAt = Date.now();
      f.stack.sites.gates.open("pg");
      const during = await f.post("/v1/login", key, slowLogin("pg-1"), { prefer: "respond-async" });
      expect({
        status: during.status,
        code: during.body?.error?.code,
        retryAfter: during.headers.get("retry-after"),
      }).toEqual({ status: 503, code: "service_unavailable", retryAfter: expect.stringMatching(/^\d+$/) });
      expect(during.ms).toBeLessThan(20_000);
      // Away for OUTAGE_MS from the stop, however long the request above took.
      await new Promise((r) => setTimeout(r, Math.max(0, stoppedAt + OUTAGE_MS - Date.now())));
      await f.postgres.start();

      // Runs wait out the restart (opening a job, marking the submit, storing the session): none is lost to it.
      const jobs = await finished(
        key,
        [held, ...accepted].map((a) => a.body.jobId),
        END_BOUND_MS,
      );
      expect(jobs.map((j) => j.status)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded", "succeeded"]);
      expect(await f.db.prisma.authJob.count({ where: { orgId, status: { in: ["queued", "running"] } } })).toBe(0);
      for (const u of [...users, "pg-held"])
        expect(Object.values(f.stack.sites.accounts.attemptsFor(u)).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1);
      expect(f.stack.processes.workers.every((w) => w.exitCode === null)).toBe(true);
      expect(f.stack.processes.gateway.exitCode).toBeNull();
    },
    4 * WAIT_BOUND_MS,
  );
});

describe("the gateway killed with logins in flight", () => {
  it(
    "a new gateway serves every job by id; the caller whose request was cut asks again and gets the session without a second password submit",
    async () => {
      const { key, orgId } = await f.tenant();
      for (const u of ["gw-1", "gw-2", "gw-waiting"]) f.stack.sites.accounts.addUser(u, "pw");
      const accepted = await Promise.all(
        ["gw-1", "gw-2"].map((u) => f.post("/v1/login", key, slowLogin(u), { prefer: "respond-async" })),
      );
      expect(accepted.map((a) => a.status)).toEqual([202, 202]);
      // A caller waiting for its login when the gateway dies: its connection is cut.
      const waiting = f.post("/v1/login", key, slowLogin("gw-waiting")).then(
        () => "answered",
        () => "cut",
      );
      await waitFor(
        "the waiting login at the site",
        async () => (await f.db.prisma.authJob.count({ where: { orgId, status: "running" } })) === 3,
      );
      await f.stack.restartGateway("SIGKILL");
      expect(await waiting).toBe("cut");

      const jobs = await finished(
        key,
        accepted.map((a) => a.body.jobId),
        END_BOUND_MS,
      );
      expect(jobs.map((j) => j.status)).toEqual(["succeeded", "succeeded"]);
      const again = await f.post("/v1/login", key, { ...slowLogin("gw-waiting"), useCache: true });
      expect(again.status).toBe(200);
      expect(f.stack.sites.accounts.attemptsFor("gw-waiting")).toEqual({ slow: 1 });
      expect(await f.db.prisma.authJob.count({ where: { orgId, status: { in: ["queued", "running"] } } })).toBe(0);
    },
    4 * WAIT_BOUND_MS,
  );
});

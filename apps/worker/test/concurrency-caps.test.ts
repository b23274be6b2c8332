import { spawn, type ChildProcess } from "node:child_process";
import { hostname } from "node:os";
import { Queue } from "bullmq";
import { createWriteStream } from "node:fs";
import path from "node:path";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import {
  DATA_DIR,
  REPO_ROOT,
  STACK_START_BOUND_MS,
  WAIT_BOUND_MS,
  deleteRedisPrefix,
  freePort,
  recreateDatabase,
  startStack,
  testStackEnv,
  waitFor,
  type Stack,
} from "@authsvc/devstack";
import { AUTH_QUEUE, queuePrefix } from "@authsvc/queue";

// A stack of its own with small caps, and a second worker process: the caps hold across processes, and the
// two together have more slots (2 × 2) than one org (2) or the site (3) may use. The second worker also serves
// the worker region "eu" (the first serves none): jobs of that region run on it alone.
const ORG_CAP = 2;
const SITE_CAP = 3;
const LOGS = path.join(DATA_DIR, "logs", "concurrency-caps");
let stack: Stack;
let secondWorker: ChildProcess;
let secondWorkerPort: number;
let db: Database;

async function startSecondWorker(env: Record<string, string>): Promise<ChildProcess> {
  const healthPort = (secondWorkerPort = await freePort());
  const child = spawn(
    process.execPath,
    ["-r", path.join(REPO_ROOT, "scripts/swc-register.cjs"), "apps/worker/src/main.ts"],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env, WORKER_HEALTH_PORT: String(healthPort) },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const log = createWriteStream(path.join(LOGS, "worker-2.log"), { flags: "a" });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the second worker exited with code ${child.exitCode}`);
    if (
      await fetch(`http://127.0.0.1:${healthPort}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the second worker was not ready after 60 s");
}

beforeAll(async () => {
  // A region with no worker is refused after 1.5 s here (10 s by default).
  const env = testStackEnv("caps_e2e", {
    WORKER_CONCURRENCY: "2",
    ORG_MAX_RUNNING_JOBS: String(ORG_CAP),
    SITE_MAX_RUNNING_JOBS: String(SITE_CAP),
    LOG_LEVEL: "info",
    REGION_WAIT_MS: "1500",
  });
  await recreateDatabase(env.DATABASE_URL!);
  stack = await startStack({ env, logs: { dir: LOGS } });
  secondWorker = await startSecondWorker({ ...stack.env, WORKER_REGIONS: "eu" });
  db = Database.fromConfig(loadConfig(stack.env), 2);
}, STACK_START_BOUND_MS);
afterAll(async () => {
  await db?.close();
  if (secondWorker && secondWorker.exitCode === null) {
    const exited = new Promise((resolve) => secondWorker.once("exit", resolve));
    secondWorker.kill("SIGTERM");
    await exited;
  }
  await stack?.stop();
  if (stack) await deleteRedisPrefix(stack.env.REDIS_URL!, stack.env.REDIS_PREFIX!);
});

async function tenant(name: string) {
  const org = await db.organizations.create(name);
  const { key } = await db.apiKeys.create(org.id, "e2e");
  return { orgId: org.id, key };
}

let seq = 0;
/**
 * Starts a login of a fresh user on the slow page under this host name; returns its job id. Its POST takes a
 * second once another login's POST is there too (or 3 s passed): logins the caps let run side by side meet
 * at the site, on a machine of any speed.
 */
async function startLogin(
  key: string,
  host: string,
  page = "slow/login?delayMs=1000&together=2",
): Promise<{ jobId: string; username: string }> {
  const username = `caps-user-${++seq}`;
  stack.sites.accounts.addUser(username, "caps-password");
  const port = new URL(stack.sites.url).port;
  const res = await fetch(`${stack.gatewayUrl}/v1/login`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", prefer: "respond-async" },
    body: JSON.stringify({
      domain: `http://${host}:${port}/${page}`,
      login_method: "password",
      cred: { username, password: "caps-password" },
    }),
  });
  expect(res.status).toBe(202);
  return { jobId: ((await res.json()) as { jobId: string }).jobId, username };
}

const statusOf = async (orgId: string, jobId: string) => (await db.authJobs.find(orgId, jobId))?.status;
const ended = (status: string | undefined) => status === "succeeded" || status === "failed";
const finalRecord = (orgId: string, jobId: string, timeoutMs = WAIT_BOUND_MS) =>
  waitFor(
    `job ${jobId} ended`,
    async () => {
      const job = await db.authJobs.find(orgId, jobId);
      return job && ended(job.status) ? job : null;
    },
    { timeoutMs },
  );

describe("concurrency caps", () => {
  it(
    "runs another org's login while one org's burst waits, never more than the caps at once",
    async () => {
      const a = await tenant("Burst org");
      const c = await tenant("Second burst org");
      const b = await tenant("Single login org");
      // Orgs A and C burst on one site: together they want more than its cap (2 + 2 > 3). Org B's one login
      // comes last, to the same site.
      const burstA = await Promise.all(Array.from({ length: 8 }, () => startLogin(a.key, "busy-site.localhost")));
      const burstC = await Promise.all(Array.from({ length: 3 }, () => startLogin(c.key, "busy-site.localhost")));
      const single = await startLogin(b.key, "busy-site.localhost");

      // Sample how many of org A's jobs run at once (their records, which the worker marks running only after the
      // gate, and ends before it frees the slot). One query per sample: a consistent snapshot of the 8 records
      // (8 separate reads, on a loaded machine, could see a job that ended and the one that took its slot both running).
      let maxRunningA = 0;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const running = await db.prisma.authJob.count({
            where: { orgId: a.orgId, id: { in: burstA.map((j) => j.jobId) }, status: "running" },
          });
          maxRunningA = Math.max(maxRunningA, running);
          await new Promise((r) => setTimeout(r, 100)); // the sampling interval: not a wait for anything
        }
      })();

      try {
        // B's login was let in ahead of most of A's burst: it did not wait for the burst to drain. Read off when
        // each job was let past the caps (its record's start), not off what had finished when B did: how long
        // each run takes on a loaded machine decides the latter, the caps' order decides the former.
        const until = Date.now() + WAIT_BOUND_MS;
        while (!ended(await statusOf(b.orgId, single.jobId)) && Date.now() < until)
          await new Promise((r) => setTimeout(r, 100));
        expect(await statusOf(b.orgId, single.jobId)).toBe("succeeded");
        const startOf = async (id: string) =>
          (await db.prisma.authJob.findUniqueOrThrow({ where: { id }, select: { startedAt: true } })).startedAt;
        const bStarted = (await startOf(single.jobId))!;
        const aStartedFirst = (await Promise.all(burstA.map((j) => startOf(j.jobId)))).filter(
          (t) => t !== null && t < bStarted,
        ).length;
        expect(aStartedFirst).toBeLessThanOrEqual(burstA.length / 2);

        // Every login of both bursts ends, each with one attempt and one password typed on the site.
        const all = [
          ...burstA.map((j) => ({ ...j, orgId: a.orgId })),
          ...burstC.map((j) => ({ ...j, orgId: c.orgId })),
        ];
        const drainUntil = Date.now() + 2 * WAIT_BOUND_MS;
        for (const j of all) {
          while (!ended(await statusOf(j.orgId, j.jobId)) && Date.now() < drainUntil)
            await new Promise((r) => setTimeout(r, 200));
        }
        for (const j of [...all, { ...single, orgId: b.orgId }]) {
          expect(await db.authJobs.find(j.orgId, j.jobId)).toMatchObject({ status: "succeeded", attempts: 1 });
          expect(stack.sites.accounts.attemptsFor(j.username)).toEqual({ slow: 1 });
        }
      } finally {
        sampling = false;
        await sampler;
      }

      // Workers parked jobs at the caps (beside those the gateway queued delayed), and no job spent an attempt on it (above).
      const parked = await Promise.all(
        [Number(stack.env.WORKER_HEALTH_PORT), secondWorkerPort].map(async (port) => {
          const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
          return Number(/^authsvc_worker_jobs_parked_total (\d+)/m.exec(text)?.[1] ?? 0);
        }),
      );
      expect(parked[0]! + parked[1]!).toBeGreaterThan(0);
      expect(maxRunningA).toBeGreaterThan(0);
      expect(maxRunningA).toBeLessThanOrEqual(ORG_CAP);
      // What the site saw: never more than its cap of parallel login POSTs from us.
      const seen = (await (await fetch(`${stack.sites.url}/__fixture/slow/in-flight`)).json()) as Record<
        string,
        { now: number; max: number }
      >;
      expect(seen["busy-site.localhost"]!.max).toBeGreaterThanOrEqual(2);
      expect(seen["busy-site.localhost"]!.max).toBeLessThanOrEqual(SITE_CAP);
    },
    6 * WAIT_BOUND_MS,
  );
});

describe("fair share between organizations", () => {
  it(
    "gives a freed slot to the organization with the fewest jobs ahead: a quiet org's login waits for one running login, whatever the others send",
    async () => {
      // Four orgs burst, each on a site of its own (under the site cap): their first jobs take the four slots (2
      // workers × 2) and their second ones, let in under the org cap, wait in the queue. In arrival order those
      // four would all start before a login that comes after them.
      const bursts = await Promise.all(["A", "C", "D", "E"].map((name) => tenant(`Fair share org ${name}`)));
      const started: Array<{ jobId: string; orgId: string }> = [];
      for (let k = 0; k < 2; k++) {
        for (const [i, org] of bursts.entries())
          started.push({
            ...(await startLogin(org.key, `fair-${i}.localhost`, "slow/login?delayMs=1500")),
            orgId: org.orgId,
          });
      }
      const burstIds = started.map((j) => j.jobId);
      // Each bursting org runs one job, and its second waits in the queue.
      await waitFor("every slot taken, one by each burst", async () => {
        const running = await db.prisma.authJob.findMany({
          where: { id: { in: burstIds }, status: "running" },
          select: { orgId: true },
        });
        return running.length === 4 && new Set(running.map((r) => r.orgId)).size === 4;
      });

      const quiet = await tenant("Fair share quiet org");
      const single = await startLogin(quiet.key, "fair-quiet.localhost", "slow/login?delayMs=1500");
      const record = await finalRecord(quiet.orgId, single.jobId);
      expect(record).toMatchObject({ status: "succeeded", attempts: 1 });

      // The quiet login was taken at the first slot that freed: of the burst jobs waiting when it arrived, none
      // was taken before it, but for one a worker may have taken just as it arrived. When a worker took each job
      // is BullMQ's processedOn (several slots free at once: the queue hands them out in priority order).
      const queue = new Queue(AUTH_QUEUE, {
        connection: { url: stack.env.REDIS_URL } as never,
        prefix: queuePrefix(stack.env.REDIS_PREFIX!, AUTH_QUEUE),
      });
      try {
        const arrived = (
          await db.prisma.authJob.findUniqueOrThrow({ where: { id: single.jobId }, select: { createdAt: true } })
        ).createdAt.getTime();
        const takenAt = async (id: string) => (await queue.getJob(id))!.processedOn!;
        const quietTaken = await takenAt(single.jobId);
        const takenAhead = (await Promise.all(burstIds.map(takenAt))).filter((t) => t > arrived && t < quietTaken);
        expect(takenAhead.length).toBeLessThanOrEqual(1);
      } finally {
        await queue.close();
      }
      for (const j of started)
        expect(await finalRecord(j.orgId, j.jobId, 2 * WAIT_BOUND_MS)).toMatchObject({
          status: "succeeded",
          attempts: 1,
        });
    },
    4 * WAIT_BOUND_MS,
  );
});

describe("worker regions", () => {
  const api = async (key: string, method: string, route: string, body?: unknown) => {
    const res = await fetch(`${stack.gatewayUrl}${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
  };
  // Which worker process ran a job (BullMQ's processedBy: host and pid), read from the region's queue.
  const ranBy = async (queueName: string, jobId: string) => {
    const queue = new Queue(queueName, {
      connection: { url: stack.env.REDIS_URL } as never,
      prefix: queuePrefix(stack.env.REDIS_PREFIX!, queueName),
    });
    try {
      return (await queue.getJob(jobId))?.processedBy;
    } finally {
      await queue.close();
    }
  };

  it(
    "runs a job that names a region on a worker of that region, and the credential's refresh goes there too",
    async () => {
      const org = await tenant("Region org");
      const username = `region-user-${++seq}`;
      stack.sites.accounts.addUser(username, "region-password");
      const login = await api(org.key, "POST", "/v1/login", {
        domain: `${stack.sites.url}/classic/login`,
        login_method: "password",
        cred: { username, password: "region-password" },
        region: "eu",
      });
      expect(login.status).toBe(200);
      const jobId = login.headers.get("x-job-id")!;
      expect(await ranBy("auth-eu", jobId)).toBe(`${hostname()}:${secondWorker.pid}`);
      const job = await db.prisma.authJob.findUniqueOrThrow({
        where: { id: jobId },
        select: { region: true, credentialId: true },
      });
      expect(job.region).toBe("eu");
      expect((await api(org.key, "GET", `/v1/credentials/${job.credentialId}`)).body).toMatchObject({ region: "eu" });

      // A refresh that names no region runs in the credential's.
      const refresh = await api(org.key, "POST", "/v1/refresh", { credentialId: job.credentialId });
      expect(refresh.status).toBe(200);
      expect(await ranBy("auth-eu", refresh.headers.get("x-job-id")!)).toBe(`${hostname()}:${secondWorker.pid}`);
    },
    2 * WAIT_BOUND_MS,
  );

  it(
    "refuses a job whose region has no worker after a short wait, naming the regions that have one; nothing is queued or typed",
    async () => {
      const org = await tenant("No region org");
      const username = `region-user-${++seq}`;
      stack.sites.accounts.addUser(username, "region-password");
      const res = await api(org.key, "POST", "/v1/login", {
        domain: `${stack.sites.url}/classic/login`,
        login_method: "password",
        cred: { username, password: "region-password" },
        region: "ap-south",
      });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("region_unavailable");
      expect(res.body.error.message).toContain('"ap-south"');
      expect(res.body.error.message).toContain("eu");
      expect(res.headers.get("retry-after")).toBe("30");
      expect(await db.prisma.authJob.count({ where: { orgId: org.orgId } })).toBe(0);
      expect(stack.sites.accounts.attemptsFor(username)).toEqual({});

      // Not a region name at all: a 400 on the field.
      const bad = await api(org.key, "POST", "/v1/login", {
        domain: `${stack.sites.url}/classic/login`,
        login_method: "password",
        cred: { username, password: "x" },
        region: "EU West",
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details).toEqual([expect.objectContaining({ field: "/region" })]);
    },
    WAIT_BOUND_MS,
  );
});

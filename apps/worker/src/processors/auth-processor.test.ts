import type { Job } from "bullmq";
import { Redis } from "ioredis";
import { BrowserHost, TargetGuard } from "@authsvc/browser";
import { loadConfig } from "@authsvc/config";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { Database } from "@authsvc/db";
import { REDIS_URL, deleteRedisPrefix, freshTestDatabase } from "@authsvc/devstack";
import { createLogger } from "@authsvc/logging";
import {
  HandoffRelay,
  InboxEvents,
  SessionCache,
  SingleFlight,
  createAuthQueue,
  createWebhookQueue,
  type AuthJobPayload,
} from "@authsvc/queue";
import { startTestSites, type TestSites } from "@authsvc/test-sites";
import { AuthJobs } from "@authsvc/jobs";
import { createFlowRunner } from "../flows/run-auth-flow";
import { createWorkerMetrics } from "../worker-metrics";
import { createAuthProcessor } from "./auth-processor";

let config: ReturnType<typeof loadConfig>;
let db: Database;
let redis: Redis;
let subscriber: Redis;
let sites: TestSites;
let browser: BrowserHost;
let processJob: ReturnType<typeof createAuthProcessor>;
const metrics = createWorkerMetrics();

beforeAll(async () => {
  config = loadConfig(await freshTestDatabase("unit_worker"));
  db = Database.fromConfig(config, 2);
  redis = new Redis(REDIS_URL);
  subscriber = new Redis(REDIS_URL);
  sites = await startTestSites();
  const guard = new TargetGuard(["loopback"]);
  browser = new BrowserHost({ executablePath: config.worker.chromiumPath, guard });
  const envelope = new Envelope(parseKeyRing(config.crypto.keyRing));
  const log = createLogger("worker-test", "silent");
  const jobs = new AuthJobs({
    config,
    db,
    authQueue: createAuthQueue(redis, config.redis.prefix, { attempts: 1, backoffMs: 0 }),
    cache: new SessionCache(redis, config.redis.prefix, envelope),
    flight: new SingleFlight(redis, config.redis.prefix),
    webhookQueue: createWebhookQueue(redis, config.redis.prefix, { attempts: 1, backoffMs: 0 }),
    log,
  });
  const runFlow = createFlowRunner({
    config,
    db,
    browser,
    guard,
    metrics,
    inboxEvents: new InboxEvents(subscriber, config.redis.prefix),
    flight: new SingleFlight(redis, config.redis.prefix),
    jobs,
    stopping: new AbortController().signal,
    relay: new HandoffRelay(redis, subscriber, config.redis.prefix),
    log: createLogger("worker-test", "silent"),
  });
  processJob = createAuthProcessor({ jobs, runFlow, log, metrics });
});
afterAll(async () => {
  await browser.close();
  await sites.close();
  await db.close();
  redis.disconnect();
  subscriber.disconnect();
  await deleteRedisPrefix(REDIS_URL, config.redis.prefix);
});

async function newJob(username: string, password: string) {
  const org = await db.organizations.create("Worker org");
  const loginUrl = `${sites.url}/classic/login`;
  const cred = await db.credentials.ensure({ orgId: org.id, loginUrl, username });
  const row = await db.jobLifecycle.create({
    orgId: org.id,
    credentialId: cred.id,
    kind: "login",
    method: "password",
    loginUrl,
    fingerprint: `fp-${username}`,
    useCache: true,
    input: { kind: "login", method: "password", password },
  });
  const job = {
    data: { authJobId: row.id, orgId: org.id },
    attemptsMade: 0,
    opts: { attempts: 3 },
  } as unknown as Job<AuthJobPayload>;
  return { job, orgId: org.id, jobId: row.id };
}

describe("processAuthJob", () => {
  it("records the submit before it happens, then the session, and erases the job's input once it succeeded", async () => {
    sites.accounts.addUser("worker-user", "worker-pass");
    const { job, orgId, jobId } = await newJob("worker-user", "worker-pass");
    const { sessionId } = await processJob(job);
    const row = await db.prisma.authJob.findUniqueOrThrow({ where: { id: jobId }, omit: { input: false } });
    expect(row).toMatchObject({ status: "succeeded", sessionId, input: null });
    expect(row.submittedAt).toBeInstanceOf(Date);
    expect((await db.sessions.findState(orgId, sessionId))!.state.cookies.some((c) => c.name === "classic_sid")).toBe(
      true,
    );
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/authsvc_login_duration_seconds_count\{outcome="succeeded"\} 1/);
    expect(text).toMatch(/authsvc_active_logins 0/);
  });

  it("never submits again when an earlier run of the same job submitted and died", async () => {
    sites.accounts.addUser("rerun-user", "rerun-pass");
    const { job, orgId, jobId } = await newJob("rerun-user", "rerun-pass");
    const { run } = (await db.jobLifecycle.claim(orgId, jobId, 1))!;
    await db.jobLifecycle.markSubmitted(jobId, run); // as the run that crashed after submitting left it
    await expect(processJob(job)).rejects.toMatchObject({ name: "UnrecoverableError", message: "login_unconfirmed" });
    expect(await db.authJobs.find(orgId, jobId)).toMatchObject({ status: "failed", errorCode: "login_unconfirmed" });
    expect(sites.accounts.attemptsFor("rerun-user")).toEqual({});
  });

  it("ends a refused login as unrecoverable after one attempt", async () => {
    sites.accounts.addUser("refused-user", "right");
    const { job, orgId, jobId } = await newJob("refused-user", "wrong");
    await expect(processJob(job)).rejects.toMatchObject({ name: "UnrecoverableError", message: "invalid_credentials" });
    expect(await db.authJobs.find(orgId, jobId)).toMatchObject({ status: "failed", errorCode: "invalid_credentials" });
    expect(sites.accounts.attemptsFor("refused-user")).toEqual({ classic: 1 });
  });

  it("keeps a failed job's input, encrypted, for a replay, and its last page redacted and encrypted", async () => {
    sites.accounts.addUser("shot-user", "right-pass");
    const { job, orgId, jobId } = await newJob("shot-user", "Wrong-Pass-Kq7Lz");
    await expect(processJob(job)).rejects.toMatchObject({ name: "UnrecoverableError", message: "invalid_credentials" });
    const row = await db.prisma.authJob.findUniqueOrThrow({ where: { id: jobId }, omit: { input: false } });
    expect(row.input).toEqual(expect.any(String));
    expect(row.input).not.toContain("Wrong-Pass-Kq7Lz");

    const shot = await db.jobScreenshots.find(orgId, jobId);
    expect(shot?.contentType).toBe("image/jpeg");
    expect(shot!.image.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(shot!.image.includes("Wrong-Pass-Kq7Lz")).toBe(false);
    const stored = await db.prisma.jobScreenshot.findUniqueOrThrow({ where: { jobId }, omit: { image: false } });
    expect(stored.orgId).toBe(orgId);
    expect(stored.image).not.toContain(shot!.image.toString("base64").slice(0, 40)); // encrypted, not the image itself
    // Another org never sees it.
    const other = await db.organizations.create("Other worker org");
    expect(await db.jobScreenshots.find(other.id, jobId)).toBeNull();
  });

  it("stores no last page for a job that succeeded", async () => {
    sites.accounts.addUser("noshot-user", "noshot-pass");
    const { job, orgId, jobId } = await newJob("noshot-user", "noshot-pass");
    await processJob(job);
    expect(await db.jobScreenshots.find(orgId, jobId)).toBeNull();
  });
});

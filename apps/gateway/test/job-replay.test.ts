import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "pg";
import { loadConfig } from "@authsvc/config";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import {
  call,
  closeDatabase,
  closeQueues as closeStackQueues,
  database,
  finalQueueJob,
  finishedJob,
  loginBody,
  newSiteUser,
  newTenant,
  sitesUrl,
  waitFor,
  WAIT_BOUND_MS,
} from "@authsvc/devstack";
import { AuthJobs, ReplayRefused } from "@authsvc/jobs";
import { createLogger } from "@authsvc/logging";
import {
  createAuthQueue,
  createRedis,
  createWebhookQueue,
  redisReady,
  SessionCache,
  SingleFlight,
} from "@authsvc/queue";

// Platform staff's side (the dashboard's): the jobs API over the running stack's database and queue.
let jobs: AuthJobs;
let redis: ReturnType<typeof createRedis>;
let closeQueues: () => Promise<unknown>;

/** The org's webhook endpoint on loopback: records every event. */
let receiver: Server;
let receiverUrl: string;
const events: Array<{ type: string; data: any }> = [];

beforeAll(async () => {
  const config = loadConfig();
  redis = createRedis(config.redis, "producer", "e2e-replay");
  await redisReady(redis);
  const authQueue = createAuthQueue(redis, config.redis.prefix, config.worker);
  const webhookQueue = createWebhookQueue(redis, config.redis.prefix, config.webhooks);
  closeQueues = () => Promise.all([authQueue.close(), webhookQueue.close()]);
  jobs = new AuthJobs({
    config,
    db: database(),
    authQueue,
    cache: new SessionCache(redis, config.redis.prefix, new Envelope(parseKeyRing(config.crypto.keyRing))),
    flight: new SingleFlight(redis, config.redis.prefix),
    webhookQueue,
    log: createLogger("e2e-replay", "silent"),
  });
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      events.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await closeQueues();
  await closeStackQueues();
  await redis.quit();
  await new Promise((resolve) => receiver.close(resolve));
  await closeDatabase();
});

async function outage(token: string, down: boolean): Promise<void> {
  const res = await fetch(`${sitesUrl()}/__fixture/outage`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, down }),
  });
  expect(res.status).toBe(204);
}

/** Polls the job as its caller would, until it ends (bounded generously, for a loaded machine). */
const ended = (key: string, jobId: string): Promise<any> => finishedJob(key, jobId);

const eventually = <T>(read: () => T | undefined, what: string, ms = WAIT_BOUND_MS): Promise<T> =>
  waitFor(what, read, { timeoutMs: ms, everyMs: 50 });

/**
 * A job is replayed once it failed for good in the queue too: the answer and the record say "failed" while
 * the queue is still ending that run (a replay then is refused as busy, as it should be).
 */
const failedForGood = async (jobId: string) =>
  expect(await finalQueueJob("auth", jobId)).toMatchObject({ state: "failed" });

/** Every row of a table as JSON text, as a database dump shows it. */
async function rowsOf(table: string): Promise<string> {
  const pg = new Client({ connectionString: process.env.DATABASE_URL });
  await pg.connect();
  try {
    return (await pg.query(`SELECT row_to_json(t)::text AS j FROM "${table}" t`)).rows
      .map((r) => r.j as string)
      .join("\n");
  } finally {
    await pg.end();
  }
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => "replayed",
    (err) => (err instanceof ReplayRefused ? err.code : `unexpected ${String(err)}`),
  );

describe("replaying a failed job", () => {
  it("runs a refresh that failed while the site was down again once it is back: same job, more attempts, the webhook says so", async () => {
    const tenant = await newTenant("Replay outage org");
    await call("POST", "/v1/webhooks", { key: tenant.key, body: { url: receiverUrl, events: ["session.refreshed"] } });
    const user = await newSiteUser("pw-Outage-4Tb8Nm");
    const token = user.username;
    const domain = `${sitesUrl()}/outage/${token}/login`;
    expect(
      (await call("POST", "/v1/login", { key: tenant.key, body: { ...loginBody("classic", user), domain } })).status,
    ).toBe(200);
    const credentialId = (await call("GET", "/v1/credentials", { key: tenant.key })).body.credentials[0].credentialId;

    await outage(token, true);
    const failed = await call("POST", "/v1/refresh", { key: tenant.key, body: { credentialId } });
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("target_unreachable");
    const jobId = failed.headers.get("x-job-id")!;
    const before = await database().authJobs.find(tenant.orgId, jobId);
    expect(before).toMatchObject({ status: "failed", errorCode: "target_unreachable" });
    // The last page it saw: the site's 503, stored redacted and encrypted.
    expect((await database().jobScreenshots.find(tenant.orgId, jobId))?.contentType).toBe("image/jpeg");

    await outage(token, false);
    await failedForGood(jobId);
    expect(await jobs.replay(jobId, { by: "e2e-staff" })).toEqual({ jobId, orgId: tenant.orgId });
    const job = await ended(tenant.key, jobId);
    expect(job).toMatchObject({
      jobId,
      status: "succeeded",
      result: { cookies: expect.arrayContaining([expect.objectContaining({ name: "classic_sid" })]) },
    });
    expect(job.error).toBeUndefined();
    const after = await database().authJobs.find(tenant.orgId, jobId);
    expect(after!.attempts).toBeGreaterThan(before!.attempts);
    expect(after).toMatchObject({ errorCode: null, replayedBy: "e2e-staff" });
    const event = await eventually(
      () => events.find((e) => e.type === "session.refreshed" && e.data.jobId === jobId),
      "session.refreshed of the replay",
    );
    expect(event.data).toMatchObject({ credentialId, username: user.username });
    // A job that succeeded is not replayed again, and its input is erased.
    expect(await refusal(jobs.replay(jobId))).toBe("not_failed");
    const row = await database().prisma.authJob.findUniqueOrThrow({ where: { id: jobId }, omit: { input: false } });
    expect(row.input).toBeNull();
  });

  it("replays a login whose password the site refused only when confirmed; its last page and input hold no password in clear", async () => {
    const tenant = await newTenant("Replay refused org");
    const user = await newSiteUser("pw-Right-2Hc9Qe");
    const typed = "pw-Typo-7Jd3Wr";
    const refused = await call("POST", "/v1/login", {
      key: tenant.key,
      body: loginBody("classic", { username: user.username, password: typed }),
    });
    expect(refused.body.error.code).toBe("invalid_credentials");
    const jobId = refused.headers.get("x-job-id")!;
    await failedForGood(jobId);

    const shot = await database().jobScreenshots.find(tenant.orgId, jobId);
    expect(shot?.contentType).toBe("image/jpeg");
    expect(shot!.image.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(shot!.image.includes(typed)).toBe(false);
    expect(await database().jobScreenshots.find((await newTenant("Nosy org")).orgId, jobId)).toBeNull();
    const [screenshots, authJobs] = await Promise.all([rowsOf("job_screenshots"), rowsOf("auth_jobs")]);
    expect(screenshots).toContain(jobId);
    expect(authJobs).toContain(jobId);
    for (const dump of [screenshots, authJobs]) expect(dump).not.toContain(typed);

    expect(await refusal(jobs.replay(jobId))).toBe("needs_confirmation");
    expect((await call("GET", `/v1/jobs/${jobId}`, { key: tenant.key })).body).toMatchObject({
      status: "failed",
      error: { code: "invalid_credentials" },
    });

    // The user set the site's password to what was typed; staff confirm the replay.
    await fetch(`${sitesUrl()}/__fixture/users`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: user.username, password: typed }),
    });
    expect(await refusal(jobs.replay(jobId, { confirmRefusedPassword: true }))).toBe("replayed");
    expect(await ended(tenant.key, jobId)).toMatchObject({
      status: "succeeded",
      result: { cookies: expect.any(Array) },
    });
  });
});

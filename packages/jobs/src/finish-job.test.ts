import type { SessionResponse } from "@authsvc/contracts";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { Database } from "@authsvc/db";
import { JobNotRunnable, JobTakenOver } from "./open-job";
import { useJobsEnv } from "./testing/jobs-env";

// A job's end is written by the run that holds it: a run that stalled past its lock while another worker
// took the job over writes nothing — no session, no requeue, no failure — and the success's writes land
// once, together, however often they are tried.
const env = useJobsEnv("unit_jobs_finish", { attempts: 3, backoffMs: 100 });

const state = { cookies: [], origins: [], storageState: { cookies: [], origins: [] } } as unknown as SessionResponse;
const signedIn = { kind: "login" as const, session: state, source: "detected" as const, changedFlow: null };

/** A queued login job, then two runs of it: the first stalled, the second took it over. */
async function takenOver(username: string) {
  const org = await env.db.organizations.create(`Finish org ${username}`);
  const cred = await env.db.credentials.ensure({ orgId: org.id, loginUrl: "https://a.test/login", username });
  const job = await env.db.jobLifecycle.create({
    orgId: org.id,
    credentialId: cred.id,
    kind: "login",
    method: "password",
    loginUrl: "https://a.test/login",
    fingerprint: `fp-${username}`,
    useCache: true,
    input: { kind: "login", method: "password", password: "pw" },
  });
  const stalled = await env.jobs.open(org.id, job.id, 1);
  const newer = await env.jobs.open(org.id, job.id, 2);
  const sessions = () => env.db.prisma.session.count({ where: { credentialId: cred.id } });
  return { org, cred, job, stalled, newer, sessions };
}

describe("a job's end, written by the run that holds it", () => {
  it("stays as its run ended it when the queue runs the job again (the run's claim lapsed as it finished)", async () => {
    const { org, job, newer, sessions } = await takenOver("ended-then-stalled");
    await env.jobs.succeed(newer, signedIn);
    await expect(env.jobs.open(org.id, job.id, 3)).rejects.toBeInstanceOf(JobNotRunnable);
    expect(await env.db.authJobs.find(org.id, job.id)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(await sessions()).toBe(1);
  });

  it("stays as its run ended it when the queue runs the job again as that run ends (the claim read it running)", async () => {
    const { org, job, newer } = await takenOver("ended-while-claimed");
    // A database whose claim, between its read and its write, lets the newer run end the job.
    let raced = false;
    const authJob = new Proxy(env.db.prisma.authJob, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (prop !== "findFirst") return typeof value === "function" ? value.bind(target) : value;
        return async (...args: unknown[]) => {
          const row = await value.apply(target, args);
          if (!raced) {
            raced = true;
            expect(await env.db.jobLifecycle.fail(job.id, newer.run, "internal_error", "ended meanwhile")).toBe(true);
          }
          return row;
        };
      },
    });
    const prisma = new Proxy(env.db.prisma, {
      get(target, prop) {
        if (prop === "authJob") return authJob;
        const value = Reflect.get(target, prop);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const keys = parseKeyRing(env.config.crypto.keyRing, env.config.crypto.activeKeyVersion);
    const racing = new Database(prisma, new Envelope(keys));
    expect(await racing.jobLifecycle.claim(org.id, job.id, 3)).toMatchObject({ ended: true, status: "failed" });
    expect(raced).toBe(true);
    expect(await env.db.authJobs.find(org.id, job.id)).toMatchObject({
      status: "failed",
      attempts: 2,
      errorCode: "internal_error",
    });
  });

  it("stores nothing of a stalled run's success; the newer run's success stands", async () => {
    const { org, job, stalled, newer, sessions } = await takenOver("stale-success");
    expect([stalled.run, newer.run]).toEqual([1, 2]);
    await expect(env.jobs.succeed(stalled, signedIn)).rejects.toBeInstanceOf(JobTakenOver);
    expect(await sessions()).toBe(0);
    const { sessionId } = await env.jobs.succeed(newer, signedIn);
    expect(await env.db.authJobs.find(org.id, job.id)).toMatchObject({ status: "succeeded", sessionId, attempts: 2 });
    expect(await sessions()).toBe(1);
  });

  it("stores one session when the success is written again after its writes landed (an answer lost with the connection)", async () => {
    const { newer, sessions } = await takenOver("written-twice");
    const first = await env.jobs.succeed(newer, signedIn);
    const again = await env.jobs.succeed(newer, signedIn);
    expect(again.sessionId).toBe(first.sessionId);
    expect(await sessions()).toBe(1);
  });

  it("neither requeues nor fails the job for a stalled run, nor records its failure on the credential", async () => {
    const { org, cred, job, stalled } = await takenOver("stale-failure");
    const transient = { code: "target_unreachable", message: "HTTP 503", retryable: true, submitted: false };
    expect(await env.jobs.fail(stalled, transient, 3)).toBe("stale");
    expect(await env.jobs.fail(stalled, { ...transient, code: "invalid_credentials", retryable: false }, 3)).toBe(
      "stale",
    );
    expect(await env.db.authJobs.find(org.id, job.id)).toMatchObject({
      status: "running",
      attempts: 2,
      errorCode: null,
      finishedAt: null,
    });
    expect((await env.db.credentials.find(org.id, cred.id))?.lastErrorCode).toBeNull();
  });
});

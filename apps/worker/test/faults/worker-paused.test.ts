import { readFileSync } from "node:fs";
import path from "node:path";
import { DATA_DIR, STACK_START_BOUND_MS, waitFor } from "@authsvc/devstack";
import { startFaultStack, type FaultStack } from "./fault-stack";

// A worker that is not dead but paused (a long GC pause, a starved CPU, a VM migrated) loses its claim on
// the login it runs; another worker takes the login over. When the first one wakes up, it must not submit.
let f: FaultStack;
beforeAll(async () => {
  f = await startFaultStack("faults_paused_e2e", { workers: 2 });
}, STACK_START_BOUND_MS);
afterAll(() => f?.close());

const workerLog = () => readFileSync(path.join(DATA_DIR, "logs", "faults-faults_paused_e2e", "worker.log"), "utf8");

describe("a worker paused past its claim in the middle of a login", () => {
  it("another worker signs in (200); the paused one, woken, stops before submitting: the password reaches the site once", async () => {
    const { key, orgId } = await f.tenant();
    f.stack.sites.accounts.addUser("paused", "pw-paused");
    f.stack.sites.gates.close("paused");
    const answer = f.post("/v1/login", key, {
      domain: `${f.stack.sites.url}/held/login?gate=paused&hold=page`,
      login_method: "password",
      cred: { username: "paused", password: "pw-paused" },
    });
    await waitFor("the browser waiting for the login page", () => f.stack.sites.gates.held("paused") === 1);
    const job = (await f.queue.getActive())[0]!;
    const paused = Number(job.processedBy!.split(":").pop());
    process.kill(paused, "SIGSTOP");
    try {
      // Its claim lapses, the other worker takes the login over and waits at the same page.
      await waitFor("the second worker at the login page", () => f.stack.sites.gates.held("paused") === 2);
      f.stack.sites.gates.open("paused");
      const res = await answer;
      expect(res.status).toBe(200);
    } finally {
      process.kill(paused, "SIGCONT");
    }
    const stopped = () => workerLog().includes("taken over by another worker while stalled");
    await waitFor(
      "the woken worker at the submit",
      () => stopped() || (f.stack.sites.accounts.attemptsFor("paused").held ?? 0) > 1,
      { everyMs: 500 },
    );
    expect(f.stack.sites.accounts.attemptsFor("paused")).toEqual({ held: 1 });
    expect(stopped()).toBe(true);
    expect(await f.db.authJobs.find(orgId, job.id!)).toMatchObject({ status: "succeeded" });
  });

  it("the paused one, woken to a page that failed while it slept, writes nothing: the other run's success stands", async () => {
    const { key, orgId } = await f.tenant();
    f.stack.sites.accounts.addUser("paused-fails", "pw-paused-fails");
    f.stack.sites.gates.close("paused-fails");
    const answer = f.post("/v1/login", key, {
      domain: `${f.stack.sites.url}/held/login?gate=paused-fails&hold=page`,
      login_method: "password",
      cred: { username: "paused-fails", password: "pw-paused-fails" },
    });
    await waitFor("the browser waiting for the login page", () => f.stack.sites.gates.held("paused-fails") === 1);
    const job = (await f.queue.getActive())[0]!;
    const paused = Number(job.processedBy!.split(":").pop());
    process.kill(paused, "SIGSTOP");
    const before = workerLog().split("\n").length;
    try {
      // The paused run's page fails (HTTP 503) while it sleeps; the other worker takes the login over and signs in.
      f.stack.sites.gates.open("paused-fails", 503);
      const res = await answer;
      expect(res.status).toBe(200);
    } finally {
      process.kill(paused, "SIGCONT");
    }
    // Woken, it fails with a transient fault (target_unreachable), which would queue the job again: the record is the newer run's.
    const since = () =>
      workerLog()
        .split("\n")
        .slice(before - 1)
        .join("\n");
    await waitFor("the woken worker's failure", () => since().includes("a newer run holds this job"), { everyMs: 500 });
    expect(since()).toContain("target_unreachable");
    expect(await f.db.authJobs.find(orgId, job.id!)).toMatchObject({ status: "succeeded", errorCode: null });
    expect(f.stack.sites.accounts.attemptsFor("paused-fails")).toEqual({ held: 1 });
  });
});

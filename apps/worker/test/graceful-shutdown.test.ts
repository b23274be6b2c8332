import path from "node:path";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { newTotpSecret } from "@authsvc/crypto";
import {
  DATA_DIR,
  STACK_START_BOUND_MS,
  deleteRedisPrefix,
  recreateDatabase,
  startStack,
  testStackEnv,
  waitFor,
  type Stack,
} from "@authsvc/devstack";
import { LOGIN_CASES } from "@authsvc/test-sites";

// A stack of its own: stopping its worker must not disturb the other end-to-end tests.
let stack: Stack;
let db: Database;

beforeAll(async () => {
  const env = testStackEnv("shutdown_e2e");
  await recreateDatabase(env.DATABASE_URL!);
  stack = await startStack({ env, logs: { dir: path.join(DATA_DIR, "logs", "shutdown") } });
  db = Database.fromConfig(loadConfig(stack.env), 1);
}, STACK_START_BOUND_MS);
afterAll(async () => {
  await db?.close();
  await stack?.stop();
  if (stack) await deleteRedisPrefix(stack.env.REDIS_URL!, stack.env.REDIS_PREFIX!);
});

describe("worker shutdown", () => {
  it("finishes the login it is running before it exits on SIGTERM", async () => {
    const org = await db.organizations.create("Shutdown org");
    const { key } = await db.apiKeys.create(org.id, "e2e");
    stack.sites.accounts.addUser("slow-user", "slow-password");
    const res = await fetch(`${stack.gatewayUrl}/v1/login`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", prefer: "respond-async" },
      body: JSON.stringify({
        domain: `${stack.sites.url}/slow/login?delayMs=3000`,
        login_method: "password",
        cred: { username: "slow-user", password: "slow-password" },
      }),
    });
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as { jobId: string };

    // Wait until the password was submitted and the site is still answering, then ask the worker to stop.
    await waitFor("the password reached the site", () => stack.sites.accounts.attemptsFor("slow-user").slow);
    expect(stack.sites.accounts.attemptsFor("slow-user")).toEqual({ slow: 1 });
    const worker = stack.processes.worker;
    const exited = new Promise<number | null>((resolve) => worker.once("exit", (code) => resolve(code)));
    worker.kill("SIGTERM");
    expect(await exited).toBe(0);

    expect(await db.authJobs.find(org.id, jobId)).toMatchObject({ status: "succeeded", attempts: 1 });
  });

  it("ends a job that waits for a person at once, handoff_interrupted, and never types the password again", async () => {
    const worker = await stack.addWorker();
    const org = await db.organizations.create("Shutdown hand-off org");
    const { key } = await db.apiKeys.create(org.id, "e2e");
    stack.sites.accounts.addUser("waiting-user", "waiting-password", { totpSecret: newTotpSecret() });
    const res = await fetch(`${stack.gatewayUrl}/v1/login`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", prefer: "respond-async" },
      body: JSON.stringify({
        domain: LOGIN_CASES.find((c) => c.name === "totp-split")!.url(stack.sites.url),
        login_method: "password",
        cred: { username: "waiting-user", password: "waiting-password" },
        allowHandoff: true,
      }),
    });
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as { jobId: string };
    await waitFor("the job waits for a person", async () => (await db.authJobs.find(org.id, jobId))?.pendingInput);

    const exited = new Promise<number | null>((resolve) => worker.once("exit", (code) => resolve(code)));
    worker.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(await db.authJobs.find(org.id, jobId)).toMatchObject({
      status: "failed",
      errorCode: "handoff_interrupted",
      attempts: 1,
      pendingInput: null,
    });
    expect(stack.sites.accounts.attemptsFor("waiting-user")).toEqual({ "totp-split": 1 });
  });
});

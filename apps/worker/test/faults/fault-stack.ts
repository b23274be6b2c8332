import { execFileSync } from "node:child_process";
import path from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import {
  DATA_DIR,
  startOwnPostgres,
  startOwnRedis,
  startStack,
  testStackEnv,
  type OwnPostgres,
  type OwnRedis,
  type Stack,
} from "@authsvc/devstack";
import { AUTH_QUEUE, queuePrefix } from "@authsvc/queue";

/**
 * Stalled-job detection of the fault stacks: a dead worker's job runs again within LOCK_MS + CHECK_MS.
 * Production defaults are 20 s + 10 s (docs/operations.md); the bounds the tests assert are built from these.
 */
export const LOCK_MS = 4000;
export const CHECK_MS = 1000;
/** The sweep of jobs the queue no longer runs (a lost Redis, a queue that gave a job up). */
export const SWEEP_MS = 2000;

export interface FaultStack {
  stack: Stack;
  redis: OwnRedis;
  postgres: OwnPostgres;
  /** The stack's database, for reading job records. */
  db: Database;
  /** The auth queue, to see which worker process runs a job. */
  queue: Queue;
  tenant(): Promise<{ orgId: string; key: string }>;
  /** POST to the gateway; `ms` is how long the answer took. */
  post(
    pathname: string,
    key: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; body: any; ms: number }>;
  get(pathname: string, key: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * A whole stack on a Redis and a PostgreSQL of its own (child processes this test may kill and restart),
 * never the machine's shared ones, which other tests use at the same time.
 */
export async function startFaultStack(
  name: string,
  options: { workers?: number; env?: Record<string, string> } = {},
): Promise<FaultStack> {
  const [redis, postgres] = await Promise.all([startOwnRedis(), startOwnPostgres()]);
  const env = testStackEnv(name, {
    DATABASE_URL: `${postgres.url}/authsvc_${name}`,
    REDIS_URL: redis.url,
    WORKER_LOCK_MS: String(LOCK_MS),
    WORKER_STALLED_CHECK_MS: String(CHECK_MS),
    JOB_SWEEP_EVERY_MS: String(SWEEP_MS),
    KEEPALIVE_EVERY_MS: "0",
    // The outages here outlast it: a request waits a second for Redis, then is answered 503 with Retry-After.
    REDIS_FAILOVER_WAIT_MS: "1000",
    ...options.env,
  });
  let stack: Stack;
  try {
    stack = await startStack({
      env,
      workers: options.workers,
      apiOnly: true,
      logs: { dir: path.join(DATA_DIR, "logs", `faults-${name}`) },
    });
  } catch (err) {
    await Promise.all([redis.stop(), postgres.destroy()]);
    throw err;
  }
  const db = Database.fromConfig(loadConfig(stack.env), 2);
  const queueRedis = new Redis(redis.url, { maxRetriesPerRequest: null });
  const queue = new Queue(AUTH_QUEUE, {
    connection: queueRedis,
    prefix: queuePrefix(stack.env.REDIS_PREFIX!, AUTH_QUEUE),
  });
  queue.on("error", () => undefined); // this test's own Redis goes away on purpose
  const send = async (
    method: string,
    pathname: string,
    key: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const started = Date.now();
    const res = await fetch(`${stack.gatewayUrl}${pathname}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the assertion shows the text
    }
    return { status: res.status, headers: res.headers, body: parsed, ms: Date.now() - started };
  };
  // A test holds requests sent before a fault and awaits them later; when it fails before that, the stack
  // closes under them. Their failure then belongs to that test, and must not end the test process (an
  // unhandled rejection would, and take the other files of the run with it).
  const request: typeof send = (...args) => {
    const answer = send(...args);
    answer.catch(() => undefined);
    return answer;
  };
  return {
    stack,
    redis,
    postgres,
    db,
    queue,
    tenant: async () => {
      const org = await db.organizations.create(`Faults ${name}`);
      const { key } = await db.apiKeys.create(org.id, "faults");
      return { orgId: org.id, key };
    },
    post: (pathname, key, body, headers) => request("POST", pathname, key, body, headers),
    get: (pathname, key) => request("GET", pathname, key),
    close: async () => {
      await queue.close().catch(() => undefined);
      queueRedis.disconnect();
      await db.close().catch(() => undefined);
      await stack.stop();
      await Promise.all([redis.stop(), postgres.destroy()]);
    },
  };
}

/** The process and every process under it (a worker and its Chromium), by pid. */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    // no children
  }
  return [pid, ...children.flatMap(processTree)];
}

/** SIGKILLs a process with everything under it at once, as when its container is killed (out of memory, node lost). */
export function killTree(pid: number): void {
  for (const p of processTree(pid)) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

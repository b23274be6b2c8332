import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import autocannon from "autocannon";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { DATA_DIR, REPO_ROOT } from "./repo-root";
import { deleteRedisPrefix, recreateDatabase } from "./reset-database";
import { startStack, type Stack } from "./stack";
import { testStackEnv } from "./test-env";
import { ageCachedSessions } from "./e2e/api-client";

/** One side of one run. Latencies in milliseconds; `errors` counts connection errors, timeouts and any answer that was not a 200 cache hit. */
export interface LoadFigures {
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** The cached `POST /v1/login` and a bare Express endpoint with the same answer, under the same load. */
export interface CachedRun {
  concurrency: number;
  durationSeconds: number;
  service: LoadFigures;
  bare: LoadFigures;
  /** service.reqPerSec / bare.reqPerSec */
  throughputRatio: number;
}

export interface CachedBenchOptions {
  /** Seconds each side is loaded per concurrency (after warm-ups that are not counted: 3 s once, 1 s per concurrency); default 5. */
  durationSeconds?: number;
  /** Default [1, 50]. */
  concurrencies?: number[];
}

// A hand-written service that knows the answer: parse the JSON body, send the JSON. Its own process, like
// the gateway, so that neither side shares an event loop with the load generator.
const BARE_SERVER = `
const express = require("express");
const body = JSON.parse(process.env.BARE_BODY);
const app = express();
app.disable("x-powered-by");
app.post("/v1/login", express.json(), (_req, res) => { res.status(200).json(body); });
const server = app.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
`;

function startBareServer(body: unknown): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["-e", BARE_SERVER], {
    cwd: path.join(REPO_ROOT, "packages/devstack"),
    env: { ...process.env, BARE_BODY: JSON.stringify(body) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
    child.stdout!.once("data", (chunk: Buffer) =>
      resolve({ url: `http://127.0.0.1:${chunk.toString().trim()}`, child }),
    );
  });
}

function cacheHeader(headers: Record<string, unknown> | undefined): unknown {
  const name = Object.keys(headers ?? {}).find((h) => h.toLowerCase() === "x-auth-cache");
  return name ? headers![name] : undefined;
}

async function load(
  url: string,
  headers: Record<string, string>,
  body: string,
  connections: number,
  seconds: number,
  expectHit: boolean,
): Promise<LoadFigures> {
  let misses = 0;
  const result = await autocannon({
    url: `${url}/v1/login`,
    connections,
    duration: seconds,
    requests: [
      {
        method: "POST",
        headers,
        body,
        // Raw header names as sent; both sides pay for this callback alike.
        onResponse: (status, _body, _context, resHeaders) => {
          if (expectHit && (status !== 200 || cacheHeader(resHeaders) !== "hit")) misses++;
        },
      },
    ],
  });
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + misses,
    non2xx: result.non2xx,
  };
}

/**
 * Cached logins against a hand-written endpoint: primes a cached session for one fixture account, then
 * loads `POST /v1/login` with `useCache: true` and a bare Express endpoint answering the same JSON (in its
 * own process) with autocannon, `durationSeconds` each, at each concurrency. Every service answer must be
 * a 200 with `X-Auth-Cache: hit`; anything else counts as an error. The stack's rate limit must be high
 * enough for the load (bench.ts sets RATE_LIMIT_PER_MINUTE=1000000).
 */
export async function benchCached(
  stack: Stack,
  apiKey: string,
  options: CachedBenchOptions = {},
): Promise<CachedRun[]> {
  const durationSeconds = options.durationSeconds ?? 5;
  const concurrencies = options.concurrencies ?? [1, 50];
  stack.sites.accounts.addUser("bench-cached", "bench-cached-password");
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const request = (useCache: boolean) =>
    JSON.stringify({
      domain: `${stack.sites.url}/classic/login`,
      login_method: "password",
      cred: { username: "bench-cached", password: "bench-cached-password" },
      useCache,
    });
  const send = async (useCache: boolean) => {
    const res = await fetch(`${stack.gatewayUrl}/v1/login`, { method: "POST", headers, body: request(useCache) });
    const json: unknown = await res.json();
    if (res.status !== 200) throw new Error(`priming login answered ${res.status}: ${JSON.stringify(json)}`);
    return { json, cache: res.headers.get("x-auth-cache") };
  };
  await send(false);
  const primed = await send(true);
  if (primed.cache !== "hit") throw new Error("expected a cache hit after a fresh login");

  const bare = await startBareServer(primed.json);
  const runs: CachedRun[] = [];
  try {
    const body = request(true);
    // Both sides warm (JIT, connection pools) before anything counts, as a gateway serving traffic is.
    await load(stack.gatewayUrl, headers, body, 10, 3, true);
    await load(bare.url, headers, body, 10, 3, false);
    for (const concurrency of concurrencies) {
      await load(stack.gatewayUrl, headers, body, concurrency, 1, true);
      const service = await load(stack.gatewayUrl, headers, body, concurrency, durationSeconds, true);
      await load(bare.url, headers, body, concurrency, 1, false);
      const bareFigures = await load(bare.url, headers, body, concurrency, durationSeconds, false);
      runs.push({
        concurrency,
        durationSeconds,
        service,
        bare: bareFigures,
        throughputRatio: service.reqPerSec / bareFigures.reqPerSec,
      });
    }
  } finally {
    bare.child.kill("SIGTERM");
  }
  return runs;
}

/** Latencies of one kind of request, in milliseconds (measured by the client, one at a time). */
export interface Latencies {
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * Cache hits that need a session check against those that do not, one request at a time: before each
 * checked one, the cached entry is made to look checked long ago (not timed), so the gateway fetches the
 * signed-in page from the fixture site before it answers. Uses benchCached's account (call that first).
 */
export async function benchCheckedHits(
  stack: Stack,
  apiKey: string,
  orgId: string,
  count = 60,
): Promise<{ count: number; checked: Latencies; plain: Latencies }> {
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const body = JSON.stringify({
    domain: `${stack.sites.url}/classic/login`,
    login_method: "password",
    cred: { username: "bench-cached", password: "bench-cached-password" },
    useCache: true,
  });
  const timedHit = async () => {
    const started = performance.now();
    const res = await fetch(`${stack.gatewayUrl}/v1/login`, { method: "POST", headers, body });
    await res.arrayBuffer();
    const ms = performance.now() - started;
    if (res.status !== 200 || res.headers.get("x-auth-cache") !== "hit")
      throw new Error(`expected a cache hit, got ${res.status} ${res.headers.get("x-auth-cache")}`);
    return ms;
  };
  const checked: number[] = [];
  const plain: number[] = [];
  const config = loadConfig(stack.env);
  for (let i = 0; i < count; i++) {
    if ((await ageCachedSessions(orgId, config)) !== 1) throw new Error("expected one cached session to age");
    checked.push(await timedHit());
    plain.push(await timedHit());
  }
  const figures = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  };
  return { count, checked: figures(checked), plain: figures(plain) };
}

/** This comparison alone, on a throwaway stack: `node -r ./scripts/swc-register.cjs packages/devstack/src/bench-cached.ts`. */
async function main(): Promise<void> {
  const env = testStackEnv("bench_cached", { LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "1000000" });
  await recreateDatabase(env.DATABASE_URL!);
  const stack = await startStack({ env, logs: { dir: path.join(DATA_DIR, "logs", "bench-cached") } });
  try {
    const db = Database.fromConfig(loadConfig(stack.env), 1);
    const org = await db.organizations.create("Bench");
    const { key } = await db.apiKeys.create(org.id, "bench");
    await db.close();
    for (const run of await benchCached(stack, key)) process.stdout.write(`${JSON.stringify(run)}\n`);
    process.stdout.write(`${JSON.stringify({ checkedHits: await benchCheckedHits(stack, key, org.id) })}\n`);
  } finally {
    await stack.stop();
    await deleteRedisPrefix(stack.env.REDIS_URL!, stack.env.REDIS_PREFIX!);
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}

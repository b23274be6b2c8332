import {
  chromiumBrowsersOf,
  machineCpuSeconds,
  namedProcessesCpuSeconds,
  processOwnCpuSeconds,
  processOwnMemoryBytes,
  processTreeCpuSeconds,
  processTreeMemoryBytes,
} from "@authsvc/browser";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { LOGIN_CASES } from "@authsvc/test-sites";
import type { Stack } from "./stack";
import { readStoreLoad, storeLoadBetween } from "./store-load";

// Pages that sign in with a username and password alone, in several shapes (server form, SPA, modal,
// frames, shadow DOM, two steps, controlled inputs, a busy signed-in page).
const PAGES = [
  "classic",
  "spa",
  "two-page",
  "modal-login",
  "iframe-cross-origin",
  "shadow-root",
  "controlled-inputs",
  "cookie-banner",
  "busy-dashboard",
  "late-form",
];

export interface FleetResult {
  workers: number;
  concurrencyPerWorker: number;
  logins: number;
  errors: number;
  seconds: number;
  latencies: number[];
  /** Workers' Node processes and their Chromium trees, summed over the workers. */
  idleMemoryBytes: number;
  peakMemoryBytes: number;
  /** (peak - idle) over the contexts that ran at once, from samples where no worker had a recycled Chromium beside its new one. */
  perContextBytes: number;
  /** The same from the samples' 95th percentile and median instead of their peak (one sample is noise: a GC, a burst). */
  perContextP95Bytes: number;
  perContextMedianBytes: number;
  /** Of the median's figure, the workers' Node processes' share (their Chromium has the rest). */
  perContextMedianNodeBytes: number;
  /** The peak while a recycled Chromium finished its last jobs beside its successor. */
  recyclePeakBytes: number;
  recycles: number;
  /** What each login cost Postgres (transactions, rows written, database growth) and Redis (commands, memory still held after the run). */
  stores: ReturnType<typeof storeLoadBetween>;
  /**
   * CPU-seconds per login over the run: the service (the whole machine's busy time, less this bench's own
   * process: the fixture sites and the load), and its shares: the gateway's process tree, the workers' Node
   * processes alone, PostgreSQL's and Redis's processes, and the rest (the workers' Chromium, which a tree
   * walk cannot follow once a recycled browser's renderers are collected by init, and the kernel's share).
   */
  cpuPerLogin: {
    service: number;
    gateway: number;
    workers: number;
    postgres: number;
    redis: number;
    chromiumAndRest: number;
  };
}

function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN;
}

async function recyclesOf(healthPort: string): Promise<number> {
  const text = await fetch(`http://127.0.0.1:${healthPort}/metrics`).then(
    (r) => r.text(),
    () => "",
  );
  return [...text.matchAll(/^authsvc_browser_recycles_total\{[^}]*\} (\d+)/gm)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
}

/**
 * The fleet under a steady backlog: the stack's workers plus `extraWorkers` more (same settings, started
 * here and left running until the stack stops), each running `WORKER_CONCURRENCY` logins at once, over `total` fresh logins (a new account each, so none
 * joins another's job, on pages whose flows are learned after their first login), `inFlight` requests
 * outstanding. Memory is sampled every 200 ms over the workers' process trees.
 */
export async function benchFleet(
  stack: Stack,
  options: { total: number; inFlight: number; extraWorkers: number },
): Promise<FleetResult> {
  const db = Database.fromConfig(loadConfig(stack.env), 1);
  const key = (await db.apiKeys.create((await db.organizations.create("Bench fleet")).id, "bench")).key;
  await db.close();
  for (let i = 0; i < options.extraWorkers; i++) await stack.addWorker();
  const pids = stack.processes.workers.map((w) => w.pid!);
  const healthPorts = stack.workerHealthPorts;
  const rss = () => pids.reduce((sum, pid) => sum + processTreeMemoryBytes(pid), 0);
  const nodeRss = () => pids.reduce((sum, pid) => sum + processOwnMemoryBytes(pid), 0);
  const cases = PAGES.map((name) => LOGIN_CASES.find((c) => c.name === name)!);
  let seq = 0;
  const login = async (n: number) => {
    const c = cases[n % cases.length]!;
    const user = { username: `fleet-${++seq}@example.test`, password: `fleet-pw-${seq}` };
    stack.sites.accounts.addUser(user.username, user.password);
    const start = performance.now();
    const res = await fetch(`${stack.gatewayUrl}/v1/login`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        domain: c.url(stack.sites.url),
        login_method: "password",
        cred: { username: user.username, password: user.password },
        useCache: false,
      }),
    });
    await res.arrayBuffer();
    return { ms: performance.now() - start, ok: res.status === 200 };
  };
  // Each page's flow is learned once, as it would be after a site's first customer.
  await Promise.all(cases.map((_, i) => login(i)));
  await new Promise((r) => setTimeout(r, 1500)); // spares made again, memory settled
  // Idle: the median of a second's samples, as the run's figures are read off many.
  const idleSamples: number[] = [];
  const idleNodeSamples: number[] = [];
  for (let i = 0; i < 5; i++) {
    idleSamples.push(rss());
    idleNodeSamples.push(nodeRss());
    await new Promise((r) => setTimeout(r, 200));
  }
  const idleMemoryBytes = quantile(idleSamples, 0.5);
  let peakMemoryBytes = idleMemoryBytes;
  let recyclePeakBytes = 0;
  const samples: number[] = [];
  const nodeSamples: number[] = [];
  const sampler = setInterval(() => {
    const now = rss();
    if (pids.some((pid) => chromiumBrowsersOf(pid) > 1)) recyclePeakBytes = Math.max(recyclePeakBytes, now);
    else {
      peakMemoryBytes = Math.max(peakMemoryBytes, now);
      samples.push(now);
      nodeSamples.push(nodeRss());
    }
  }, 200);
  const recyclesBefore = (await Promise.all(healthPorts.map(recyclesOf))).reduce((a, b) => a + b, 0);
  const gatewayPid = stack.processes.gateway.pid;
  const ownCpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  const storesBefore = await readStoreLoad(stack.env.DATABASE_URL!, stack.env.REDIS_URL!);
  const cpuNow = () => ({
    machine: machineCpuSeconds(),
    own: ownCpu(),
    gateway: processTreeCpuSeconds(gatewayPid),
    workers: pids.reduce((sum, pid) => sum + processOwnCpuSeconds(pid), 0),
    postgres: namedProcessesCpuSeconds("postgres"),
    redis: namedProcessesCpuSeconds("redis-server"),
  });
  const cpuBefore = cpuNow();
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.inFlight }, async () => {
      while (next < options.total) {
        const r = await login(next++);
        latencies.push(r.ms);
        if (!r.ok) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuNow();
  const perLogin = (k: keyof typeof cpuAfter) => (cpuAfter[k] - cpuBefore[k]) / latencies.length;
  const service = perLogin("machine") - perLogin("own");
  const cpuPerLogin = {
    service,
    gateway: perLogin("gateway"),
    workers: perLogin("workers"),
    postgres: perLogin("postgres"),
    redis: perLogin("redis"),
    chromiumAndRest: service - perLogin("gateway") - perLogin("workers") - perLogin("postgres") - perLogin("redis"),
  };
  // Sessions report their statistics at most once a second.
  await new Promise((r) => setTimeout(r, 2000));
  const stores = storeLoadBetween(
    storesBefore,
    await readStoreLoad(stack.env.DATABASE_URL!, stack.env.REDIS_URL!),
    latencies.length,
  );
  clearInterval(sampler);
  const recycles = (await Promise.all(healthPorts.map(recyclesOf))).reduce((a, b) => a + b, 0) - recyclesBefore;
  const concurrency = Number(stack.env.WORKER_CONCURRENCY ?? 2);
  const workers = pids.length;
  return {
    workers,
    concurrencyPerWorker: concurrency,
    logins: latencies.length,
    errors,
    seconds,
    latencies,
    idleMemoryBytes,
    peakMemoryBytes,
    perContextBytes: (peakMemoryBytes - idleMemoryBytes) / (workers * concurrency),
    perContextP95Bytes: (quantile(samples, 0.95) - idleMemoryBytes) / (workers * concurrency),
    perContextMedianBytes: (quantile(samples, 0.5) - idleMemoryBytes) / (workers * concurrency),
    perContextMedianNodeBytes: (quantile(nodeSamples, 0.5) - quantile(idleNodeSamples, 0.5)) / (workers * concurrency),
    recyclePeakBytes,
    recycles,
    stores,
    cpuPerLogin,
  };
}

import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { applyMigrations, ensureDatabase } from "@authsvc/db";
import { SITES_HOST_NAME, startOAuthHosts, startTestSites, type OAuthHosts, type TestSites } from "@authsvc/test-sites";
import { REPO_ROOT } from "./repo-root";
import { choosePort, freePort, portIsFree } from "./ports";

export interface StackOptions {
  env: Record<string, string>;
  /** Fixed port for the fixture sites (the demo page), or 0 for any. */
  sitesPort?: number;
  /** Where child output goes: a folder for log files, or "inherit" to print it. */
  logs: { dir: string } | "inherit";
  /** Worker processes to start (default 1): fault tests kill one and watch another take its jobs over. */
  workers?: number;
  /** Without mail-in and the dashboard: a stack for tests that need neither (less to start on a small machine). */
  apiOnly?: boolean;
}

export interface Stack {
  gatewayUrl: string;
  /** The web dashboard (accounts, organizations, API keys, jobs, admin). */
  dashboardUrl: string;
  sites: TestSites;
  /**
   * The same fixture sites under a host name (`http://acme.test:<port>`, through the host map), whose mail is
   * DKIM-signed for that domain as a real site's is; null in a production-mode stack.
   */
  namedSitesUrl: string | null;
  /** The Google-like and GitHub-like fixtures and Fabrikam Boards; null in a production-mode stack. */
  oauthHosts: OAuthHosts | null;
  env: Record<string, string>;
  /** mail-in's SMTP server, where the fixture sites deliver their mail. */
  smtp: { host: string; port: number };
  /** The processes running now: `worker` is the first of `workers`; mail-in and the dashboard are absent with `apiOnly`. */
  processes: {
    gateway: ChildProcess;
    worker: ChildProcess;
    workers: ChildProcess[];
    mailIn?: ChildProcess;
    dashboard?: ChildProcess;
  };
  /** Stops the gateway (SIGKILL: a crash; SIGTERM: a rolling restart) and starts a new one on the same port. */
  restartGateway(signal: NodeJS.Signals): Promise<void>;
  /** The health (and /metrics) port of each worker in `processes.workers`, in the same order. */
  workerHealthPorts: string[];
  /** Starts one more worker process (its own health port) and waits until it takes jobs. */
  addWorker(): Promise<ChildProcess>;
  stop(): Promise<void>;
}

// How long a started service may take to say it is ready before the stack gives up on it: a bound for a
// service that is not going to start, not a speed. Generous, since a loaded 2-core machine starting several
// stacks at once (the test suite does) took over a minute to start a worker.
const READY_BOUND_MS = 240_000;
/** The bound for a test hook that starts a stack (database, services, readiness): more than READY_BOUND_MS. */
export const STACK_START_BOUND_MS = READY_BOUND_MS + 60_000;

async function waitForHttp(url: string, child: ChildProcess, name: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} before it was ready`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} was not ready at ${url} after ${timeoutMs} ms`);
}

function launch(name: string, entry: string, env: Record<string, string>, logs: StackOptions["logs"]): ChildProcess {
  // DEVSTACK_NODE_ARGS passes flags such as --cpu-prof or --inspect to the service processes.
  const extra = (process.env.DEVSTACK_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(
    process.execPath,
    [...extra, "--enable-source-maps", "-r", path.join(REPO_ROOT, "scripts/swc-register.cjs"), entry],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  if (logs === "inherit") {
    child.stdout!.pipe(process.stdout);
    child.stderr!.pipe(process.stderr);
  } else {
    mkdirSync(logs.dir, { recursive: true });
    const file = createWriteStream(path.join(logs.dir, `${name}.log`), { flags: "a" });
    child.stdout!.pipe(file);
    child.stderr!.pipe(file);
  }
  return child;
}

function stopProcess(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * The whole service on this machine: database created and migrated, fixture sites in this process, and the
 * real gateway, worker, mail-in and dashboard as child processes. Used by `npm start`, the end-to-end tests and the benchmark.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const env = { ...options.env };
  await ensureDatabase(env.DATABASE_URL!);
  await applyMigrations(env.DATABASE_URL!);
  const port = (name: string, movable = false) => choosePort(env, name, movable);
  env.GATEWAY_PORT = await port("GATEWAY_PORT");
  env.WORKER_HEALTH_PORT = await port("WORKER_HEALTH_PORT", true);
  env.MAIL_SMTP_HOST ??= "127.0.0.1";
  env.MAIL_SMTP_PORT = await port("MAIL_SMTP_PORT");
  env.MAIL_HEALTH_PORT = await port("MAIL_HEALTH_PORT", true);
  env.DASHBOARD_PORT = await port("DASHBOARD_PORT");
  env.DASHBOARD_HOST ??= "127.0.0.1";
  if (options.sitesPort && !(await portIsFree(options.sitesPort))) {
    throw new Error(
      `port ${options.sitesPort} (DEMO_SITES_PORT, the demo sites) is taken by another program on this machine: stop it, or set DEMO_SITES_PORT to a free port`,
    );
  }
  // The fixture SMS site signs its webhook calls like Twilio; this stack's own token (never a real one).
  env.TWILIO_AUTH_TOKEN ??= randomBytes(16).toString("hex");
  const host = env.GATEWAY_HOST && env.GATEWAY_HOST !== "0.0.0.0" ? env.GATEWAY_HOST : "127.0.0.1";
  const gatewayUrl = `http://${host}:${env.GATEWAY_PORT}`;
  const dashboardHost = env.DASHBOARD_HOST !== "0.0.0.0" ? env.DASHBOARD_HOST : "127.0.0.1";
  env.DASHBOARD_URL ??= `http://${dashboardHost}:${env.DASHBOARD_PORT}`;
  const dashboardUrl = env.DASHBOARD_URL;
  const smtp = {
    host: env.MAIL_SMTP_HOST === "0.0.0.0" ? "127.0.0.1" : env.MAIL_SMTP_HOST,
    port: Number(env.MAIL_SMTP_PORT),
  };
  const sites = await startTestSites(options.sitesPort ?? 0, "127.0.0.1", {
    smtp,
    sms: { webhookUrl: `${gatewayUrl}/v1/inbound/sms`, authToken: env.TWILIO_AUTH_TOKEN },
  });

  // Served under accounts.google.com and github.com through the worker's host map: never in production,
  // and only when loopback targets are allowed (config refuses the map otherwise).
  const allowsLoopback = (env.TARGET_ALLOW_RANGES ?? "")
    .split(",")
    .map((r) => r.trim())
    .includes("loopback");
  const oauthHosts = env.NODE_ENV !== "production" && allowsLoopback ? await startOAuthHosts() : null;
  // The fixture sites' own DNS holds the keys their mail is signed with: mail-in checks signatures there.
  env.MAIL_DNS_SERVERS ??= sites.dnsServer;
  const sitesPort = new URL(sites.url).port;
  const namedSitesUrl = oauthHosts ? `http://${SITES_HOST_NAME}:${sitesPort}` : null;
  if (oauthHosts) {
    env.EGRESS_HOST_MAP = [oauthHosts.hostMapEnv, `${SITES_HOST_NAME}=127.0.0.1:${sitesPort}`].join(",");
    env.BROWSER_TRUSTED_SPKI = oauthHosts.trustedSpki;
  }

  // Each worker after the first gets a health port of its own.
  const workerPorts: string[] = [];
  const startWorker = async (): Promise<{ child: ChildProcess; ready: Promise<void> }> => {
    const healthPort = workerPorts.length ? String(await freePort()) : env.WORKER_HEALTH_PORT!;
    workerPorts.push(healthPort);
    const child = launch("worker", "apps/worker/src/main.ts", { ...env, WORKER_HEALTH_PORT: healthPort }, options.logs);
    return { child, ready: waitForHttp(`http://127.0.0.1:${healthPort}/readyz`, child, "worker", READY_BOUND_MS) };
  };
  const started = await Promise.all(Array.from({ length: Math.max(1, options.workers ?? 1) }, startWorker));
  const processes: Stack["processes"] = {
    gateway: launch("gateway", "apps/gateway/src/main.ts", env, options.logs),
    worker: started[0]!.child,
    workers: started.map((w) => w.child),
  };
  if (!options.apiOnly) {
    processes.mailIn = launch("mail-in", "apps/mail-in/src/main.ts", env, options.logs);
    processes.dashboard = launch("dashboard", "apps/dashboard/src/main.ts", env, options.logs);
  }
  const stop = async () => {
    const { gateway, workers, mailIn, dashboard } = processes;
    await Promise.all([
      stopProcess(gateway, 15_000),
      ...workers.map((w) => stopProcess(w, 30_000)),
      mailIn && stopProcess(mailIn, 15_000),
      dashboard && stopProcess(dashboard, 15_000),
    ]);
    await sites.close();
    await oauthHosts?.close();
  };
  const gatewayReady = () => waitForHttp(`${gatewayUrl}/readyz`, processes.gateway, "gateway", READY_BOUND_MS);
  try {
    await Promise.all([
      gatewayReady(),
      ...started.map((w) => w.ready),
      processes.mailIn &&
        waitForHttp(`http://127.0.0.1:${env.MAIL_HEALTH_PORT}/readyz`, processes.mailIn, "mail-in", READY_BOUND_MS),
      processes.dashboard &&
        waitForHttp(
          `http://${dashboardHost}:${env.DASHBOARD_PORT}/readyz`,
          processes.dashboard,
          "dashboard",
          READY_BOUND_MS,
        ),
    ]);
  } catch (err) {
    await stop();
    throw err;
  }
  const restartGateway = async (signal: NodeJS.Signals) => {
    const old = processes.gateway;
    if (old.exitCode === null && old.signalCode === null) {
      const gone = new Promise((resolve) => old.once("exit", resolve));
      old.kill(signal);
      await gone;
    }
    processes.gateway = launch("gateway", "apps/gateway/src/main.ts", env, options.logs);
    await gatewayReady();
  };
  const addWorker = async () => {
    const { child, ready } = await startWorker();
    processes.workers.push(child);
    await ready;
    return child;
  };
  return {
    gatewayUrl,
    dashboardUrl,
    sites,
    namedSitesUrl,
    oauthHosts,
    env,
    smtp,
    processes,
    workerHealthPorts: workerPorts,
    restartGateway,
    addWorker,
    stop,
  };
}

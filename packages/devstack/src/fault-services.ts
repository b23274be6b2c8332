import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, portIsFree } from "./ports";

/**
 * Redis and PostgreSQL of a fault test's own, which it may kill and restart: the machine's shared ones
 * serve every other test running at the same time and must never be stopped.
 */

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} after ${timeoutMs} ms`);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

export interface OwnRedis {
  url: string;
  port: number;
  /** SIGKILLs the server: every connection drops, and (no persistence) every key is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A `redis-server` child process on a free port, without persistence (a restart loses every key). */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    const started = child;
    await until(
      `redis-server on port ${port} did not start`,
      async () => {
        if (started.exitCode !== null) throw new Error(`redis-server exited with ${started.exitCode}`);
        return !(await portIsFree(port));
      },
      10_000,
    );
  };
  const kill = async () => {
    if (!child) return;
    const dying = child;
    child = null;
    dying.kill("SIGKILL");
    await exited(dying);
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, kill, start, stop: kill };
}

export interface OwnPostgres {
  /** Server URL without a database (`postgresql://postgres@127.0.0.1:port`). */
  url: string;
  port: number;
  /** `pg_ctl stop -m immediate`: connections drop at once, like a crashed or failed-over server. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and deletes its data directory. */
  destroy(): Promise<void>;
}

function postgresBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(path.join(root, v, "bin", "initdb")))
    : [];
  if (!versions.length)
    throw new Error(`no PostgreSQL server binaries under ${root} (scripts/bootstrap.sh installs them)`);
  return path.join(root, versions.sort((a, b) => Number(b) - Number(a))[0]!, "bin");
}

/**
 * A fresh cluster's data directory at `data`: a copy of one initdb made once per machine and PostgreSQL
 * version (initdb costs seconds of CPU; a copy, a fraction of one), made by the first caller under a
 * temporary name and renamed into place, so concurrent callers never see half of one.
 */
async function copyOfFreshCluster(
  bin: string,
  data: string,
  run: (tool: string, args: string[]) => Promise<void>,
): Promise<void> {
  const uid = process.getuid?.() ?? 0;
  const template = path.join(tmpdir(), `authsvc-pg-template-${path.basename(path.dirname(bin))}-${uid}`);
  if (!existsSync(path.join(template, "PG_VERSION"))) {
    const making = mkdtempSync(`${template}.making-`);
    if (uid === 0) {
      const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
      chownSync(making, id("-u"), id("-g"));
    }
    await run("initdb", ["-D", path.join(making, "data"), "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
    try {
      renameSync(path.join(making, "data"), template);
    } catch {
      // another run made it first
    }
    rmSync(making, { recursive: true, force: true });
  }
  // -a keeps the postgres user's ownership and the 0700 mode PostgreSQL insists on.
  await promisify(execFile)("cp", ["-a", template, data]);
}

/**
 * A throwaway PostgreSQL cluster (a fresh cluster's copy in a temporary directory, trust authentication, a free port), run
 * by pg_ctl. PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user, which
 * Debian's package (installed by scripts/bootstrap.sh) creates.
 */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = postgresBin();
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "authsvc-pg-"));
  const data = path.join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, id("-u"), id("-g"));
  }
  chmodSync(dir, 0o700);
  // Asynchronous: the fixture sites run in the test's process and must keep answering while the server stops and starts.
  const run = async (tool: string, args: string[]) => {
    const [cmd, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args]]
      : [path.join(bin, tool), args];
    await promisify(execFile)(cmd as string, argv as string[], { cwd: dir });
  };
  await copyOfFreshCluster(bin, data, run);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=100`;
  const start = async () => {
    await run("pg_ctl", ["-D", data, "-l", path.join(dir, "server.log"), "-o", options, "-w", "-t", "30", "start"]);
    await until(
      `PostgreSQL on port ${port} is not accepting connections`,
      async () => !(await portIsFree(port)),
      10_000,
    );
  };
  const stop = async () => {
    if (existsSync(path.join(data, "postmaster.pid")))
      await run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
  };
  await start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}`,
    port,
    stop,
    start,
    destroy: async () => {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

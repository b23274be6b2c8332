import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { portIsFree } from "./ports";

const run = promisify(execFile);

export interface ClusterNode {
  port: number;
  /** `127.0.0.1:<port>` */
  address: string;
  alive: boolean;
}

/**
 * A Redis Cluster of a test's own on loopback (Debian's redis-server with cluster-enabled): masters, each
 * with its replicas, no persistence. A test may kill a master and watch a replica take over.
 */
export interface OwnRedisCluster {
  nodes: ClusterNode[];
  /** `redis+cluster://127.0.0.1:p1,…`: REDIS_URL for the service. */
  url: string;
  /** The node that serves `key`'s hash slot now (a master). */
  masterOf(key: string): Promise<ClusterNode>;
  /** SIGKILLs a node: its connections drop and its keys are gone; for a master, a replica takes over its slots. */
  kill(node: ClusterNode): Promise<void>;
  /** Resolves once every slot is served by a live master (after a kill: the failover is over). */
  settled(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A port whose cluster bus port (port + 10000) is free too. */
async function clusterPort(taken: Set<number>): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = 10_000 + Math.floor(Math.random() * 12_000);
    if (taken.has(port) || taken.has(port + 10_000) || taken.has(port - 10_000)) continue;
    if ((await portIsFree(port)) && (await portIsFree(port + 10_000))) return port;
  }
  throw new Error("no free port pair for a Redis Cluster node");
}

const cli = async (port: number, ...args: string[]) =>
  (await run("redis-cli", ["-p", String(port), ...args], { encoding: "utf8" })).stdout.trim();

/**
 * Starts `masters` masters with `replicas` replicas each, joins them with `redis-cli --cluster create`, and
 * resolves once every slot is served and every replica has synced with its master. `nodeTimeoutMs` is how long
 * a master must be unreachable before its replica takes over (Redis' cluster-node-timeout).
 */
export async function startRedisCluster(
  options: { masters?: number; replicas?: number; nodeTimeoutMs?: number } = {},
): Promise<OwnRedisCluster> {
  const { masters = 3, replicas = 1, nodeTimeoutMs = 1000 } = options;
  const dir = mkdtempSync(path.join(tmpdir(), "authsvc-redis-cluster-"));
  const taken = new Set<number>();
  const children = new Map<number, ChildProcess>();
  const nodes: ClusterNode[] = [];
  for (let i = 0; i < masters * (1 + replicas); i++) {
    const port = await clusterPort(taken);
    taken.add(port);
    const child = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        dir,
        "--dbfilename",
        `dump-${port}.rdb`,
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        `nodes-${port}.conf`,
        "--cluster-node-timeout",
        String(nodeTimeoutMs),
      ],
      { stdio: "ignore" },
    );
    children.set(port, child);
    nodes.push({ port, address: `127.0.0.1:${port}`, alive: true });
  }
  const stop = async () => {
    await Promise.all(
      [...children.values()].map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return undefined;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        return exited;
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  const liveMasters = async () => {
    const live = nodes.find((n) => n.alive)!;
    const lines = (await cli(live.port, "cluster", "nodes")).split("\n");
    return lines
      .map((l) => l.split(" "))
      .filter((f) => f[2]!.includes("master") && !f[2]!.includes("fail") && f.length > 8);
  };
  // Every live node says the cluster is ok, and the masters that serve all 16384 slots are live ones (right
  // after a kill the others have not noticed yet, and still name the dead master).
  const settled = async (timeoutMs = 30_000) => {
    await until(
      "the Redis Cluster did not serve every slot from a live master",
      async () => {
        for (const n of nodes.filter((x) => x.alive))
          if (!(await cli(n.port, "cluster", "info")).includes("cluster_state:ok")) return false;
        let served = 0;
        for (const fields of await liveMasters()) {
          if (!nodes.some((n) => n.alive && fields[1]!.startsWith(`${n.address}@`))) return false;
          for (const range of fields.slice(8)) {
            const [from, to = from] = range.split("-").map(Number);
            served += to! - from! + 1;
          }
        }
        return served === 16384;
      },
      timeoutMs,
    );
  };
  try {
    for (const n of nodes)
      await until(
        `redis-server on port ${n.port} did not start`,
        async () => (await cli(n.port, "ping")) === "PONG",
        10_000,
      );
    await run(
      "redis-cli",
      ["--cluster", "create", ...nodes.map((n) => n.address), "--cluster-replicas", String(replicas), "--cluster-yes"],
      { encoding: "utf8" },
    );
    await settled();
    // Replicas must hold their master's data before a kill can be survived.
    await until(
      "the Redis Cluster's replicas did not sync",
      async () => {
        let synced = 0;
        for (const n of nodes) {
          const info = await cli(n.port, "info", "replication");
          if (info.includes("role:slave") && info.includes("master_link_status:up")) synced++;
        }
        return synced === masters * replicas;
      },
      30_000,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    nodes,
    url: `redis+cluster://${nodes.map((n) => n.address).join(",")}`,
    async masterOf(key) {
      const slot = Number(await cli(nodes.find((n) => n.alive)!.port, "cluster", "keyslot", key));
      for (const fields of await liveMasters()) {
        for (const range of fields.slice(8)) {
          const [from, to = from] = range.split("-").map(Number);
          if (slot >= from! && slot <= to!) return nodes.find((n) => fields[1]!.startsWith(`${n.address}@`))!;
        }
      }
      throw new Error(`no live master serves slot ${slot}`);
    },
    async kill(node) {
      const child = children.get(node.port)!;
      node.alive = false;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
    settled,
    stop,
  };
}

import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** The ports a stack's processes listen on: the one asked for when it is free, else a free one outside the ephemeral range. */

/**
 * The port a stack process listens on: the one `env[name]` fixes when it is free, else a free one. A port
 * the caller fixed that is taken moves only when `movable` (internal health ports: other local services
 * often hold 8081/8082); a port people use (API, SMTP) stops the start with the port named.
 */
export async function choosePort(env: Record<string, string>, name: string, movable: boolean): Promise<string> {
  const wanted = env[name] && env[name] !== "0" ? Number(env[name]) : 0;
  if (wanted && (await portIsFree(wanted))) return String(wanted);
  if (wanted && !movable)
    throw new Error(
      `port ${wanted} (${name}) is taken by another program on this machine: stop it, or set ${name} to a free port`,
    );
  const free = await freePort();
  if (wanted) console.warn(`port ${wanted} (${name}) is taken by another program; using ${free}`);
  return String(free);
}

/** Whether nothing listens on 127.0.0.1:port now. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * The range the kernel takes the local ports of outgoing connections from (Linux: 32768-60999 unless
 * configured). A port from it, free now, can be taken by any connection the machine opens before the
 * process it is meant for listens: on a busy machine (a test suite's browsers and stacks) that happens.
 */
function ephemeralRange(): [number, number] {
  try {
    const [lo, hi] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (lo && hi) return [lo, hi];
  } catch {
    // not Linux
  }
  return [32768, 60999];
}

/**
 * The Fetch standard's "bad ports" from 10000 up (fetch, so Node's too, and Chromium refuse to connect to
 * them): a stack given 10080 never answered its own readiness check (a fault test, once in a suite).
 */
const BAD_PORTS = new Set([10080]);

/**
 * A port nothing listens on now, for another process to listen on: below the ephemeral range (see
 * ephemeralRange), so that no outgoing connection takes it in the meantime, picked at random so that two
 * stacks starting at once do not pick the same one. The kernel's choice only when that range has none.
 */
export async function freePort(): Promise<number> {
  const [lo] = ephemeralRange();
  const floor = 10_000;
  for (let i = 0; lo - floor > 1000 && i < 50; i++) {
    const port = floor + Math.floor(Math.random() * (lo - floor));
    if (BAD_PORTS.has(port)) continue;
    if (await portIsFree(port)) return port;
  }
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { HOST, LOG_DIR } from "./places";

/** The processes the real-application bench starts (each stopped by stopAll), and waits for them to answer. */

const started: Array<{ name: string; child: ChildProcess; stop?: () => Promise<void> }> = [];

/** Starts a long-running process, its output in .data/real-apps/logs/<name>.log; stopped by stopAll. */
export function daemon(
  name: string,
  cmd: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; stop?: () => Promise<void> } = {},
): ChildProcess {
  mkdirSync(LOG_DIR, { recursive: true });
  const log = createWriteStream(path.join(LOG_DIR, `${name}.log`), { flags: "a" });
  const child = spawn(cmd, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  // Two streams into one file: neither ends it (the first to end would leave the other writing after the
  // end, which throws); the file is closed once the process and both its streams are done.
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  child.on("close", () => log.end());
  child.on("error", (err) => log.write(`spawn failed: ${err.message}\n`));
  started.push({ name, child, stop: options.stop });
  return child;
}

/** Registers a stop for something that runs by itself (a daemon that forks, such as Apache). */
export function onStop(name: string, stop: () => Promise<void>): void {
  started.push({ name, child: null as unknown as ChildProcess, stop });
}

/** Stops every process the bench started, newest first: its own stop, else SIGTERM to its process group. */
export async function stopAll(): Promise<void> {
  for (const s of started.reverse()) {
    try {
      if (s.stop) await s.stop();
      else if (s.child.exitCode === null && s.child.pid) {
        const gone = new Promise((r) => s.child.once("exit", r));
        process.kill(-s.child.pid, "SIGTERM");
        await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
        if (s.child.exitCode === null) process.kill(-s.child.pid, "SIGKILL");
      }
    } catch {
      // already gone
    }
  }
  started.length = 0;
}

export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, HOST);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Waits until a URL answers (any HTTP status), or throws after `ms`. */
export async function waitHttp(url: string, ms = 60_000, child?: ChildProcess): Promise<void> {
  const until = Date.now() + ms;
  let last = "";
  while (Date.now() < until) {
    if (child && child.exitCode !== null)
      throw new Error(`${url}: the process exited (${child.exitCode}); see ${LOG_DIR}`);
    try {
      await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(20_000) });
      return;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer within ${ms / 1000} s (${last}); see ${LOG_DIR}`);
}

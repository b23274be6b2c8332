// What a BrowserHost is given (its options) and the settings it and its callers share.
import type { BrowserContextOptions } from "puppeteer-core";
import type { TargetGuard } from "@authsvc/egress";
import type { EgressRefusal, ProxyDoor } from "./egress-proxy";
import type { BrowserMode } from "./launch-chromium";

export interface BrowserHostOptions {
  executablePath: string;
  /** The whole browser headless (the default), or chromium-headless-shell (`executablePath` must be that binary). */
  mode?: BrowserMode;
  /** Decides every connection Chromium makes, through the host's egress proxy. */
  guard: TargetGuard;
  /**
   * Tests and development only: base64 SHA-256 keys of self-signed certificates to accept (the fixtures served
   * under real host names through the guard's host map). Empty in production, where config refuses it.
   */
  trustedSpki?: readonly string[];
  onCrash?: (err: Error) => void;
  onEgressRefused?: (refusal: EgressRefusal) => void;
  /**
   * Chromium is replaced by a fresh one after this many jobs (0: never), or once its processes together
   * hold more than `recycleAboveBytes` of memory (0: never) after a job. Long-lived browsers grow: caches,
   * leaked renderer memory, fragmentation.
   */
  recycleAfterJobs?: number;
  recycleAboveBytes?: number;
  /**
   * How often, at most, the memory bound is read (after a job; default MEMORY_CHECK_EVERY_MS), and how: by
   * default the PSS of Chromium's whole process tree, from /proc.
   */
  memoryCheckEveryMs?: number;
  readMemory?: (pid: number | undefined) => number;
  onRecycle?: (why: { jobs: number; memoryBytes: number; reason: "jobs" | "memory" }) => void;
}

/**
 * A browser context's options for a job's own proxy: every connection through that door of the egress proxy,
 * loopback included (as for the browser's own proxy). Undefined: the browser's own proxy, the job's guard only.
 */
export function contextOptions(door: ProxyDoor | null | undefined): BrowserContextOptions | undefined {
  return door ? { proxyServer: door.url, proxyBypassList: ["<-loopback>"] } : undefined;
}

/**
 * The memory bound is read at most this often. Reading it walks /proc and every Chromium process's
 * smaps_rollup (the kernel walks each process's mappings): read after every job, it took about 0.12
 * CPU-seconds a login on a 2-core machine and held the worker's event loop, and its other logins, for as
 * long. A browser grows over many jobs, not within seconds.
 */
export const MEMORY_CHECK_EVERY_MS = 5000;

import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import type { Page } from "puppeteer-core";
import { parseTotpSecret, totpCode } from "@authsvc/crypto";
import { DATA_DIR } from "../repo-root";

/**
 * The real-application bench's plumbing: where each application lives, installs from Debian and npm, the
 * processes the bench starts (every one on 127.0.0.1), and the shape of an application module.
 */

/** Everything the bench installs or writes outside Debian's own places: .data/real-apps/<app>. */
export const REAL_APPS_DIR = path.join(DATA_DIR, "real-apps");
export const appDir = (name: string) => {
  const dir = path.join(REAL_APPS_DIR, name);
  mkdirSync(dir, { recursive: true });
  return dir;
};
export const LOG_DIR = path.join(REAL_APPS_DIR, "logs");

/** Loopback only: no application the bench starts listens on any other address. */
export const HOST = "127.0.0.1";

/** The service's mail-in SMTP port during the bench: applications that mail (sign-up confirmations) send there. */
export const MAIL_SMTP_PORT = 8825;

export interface Account {
  username: string;
  password: string;
  email?: string;
  totpSecret?: string;
}

/** One way to sign in to an application: the URL a caller sends, the credentials and the hand-written baseline. */
export interface LoginVariant {
  /** The case's name in the table ("password", "email as login", "totp"…). */
  label: string;
  loginUrl: string;
  method: "password" | "totp";
  cred: { username?: string; email?: string; password: string; totpSecret?: string };
  /** The baseline: plain Puppeteer that knows the page, signs in and waits for the signed-in page's own marker. */
  baseline(page: Page): Promise<void>;
  /** Also send a wrong password. */
  wrongPassword?: boolean;
  /** The session lives in the Authorization header (HTTP Basic): the baseline's session is these credentials. */
  httpCredentials?: { username: string; password: string };
  /** A page of its own that proves this variant's session (else the application's). */
  proof?: RealApp["proof"];
}

export interface RealApp {
  name: string;
  /** What the application is, and which shapes of the issue's list it covers. */
  about: string;
  covers: string[];
  /** Installs what is missing (Debian packages, an npm project under .data/real-apps/<name>); quick when done. */
  install(): Promise<void>;
  /** Starts the application (and what it needs) on loopback and makes its known account; idempotent. */
  start(): Promise<void>;
  variants: LoginVariant[];
  /** A sign-up page, for POST /v1/signup with a new mailbox of ours; its session is proven like a login's. */
  signup?: { url: string; about: string };
  /** A page only a signed-in account sees, and how to tell it shows the account (not the login page). */
  proof: { url: string; signedIn(page: Page): Promise<boolean> };
}

// ---------------------------------------------------------------------------------------------------------
// Commands

export class CommandError extends Error {}

/** Runs a command to its end; its output is returned, a failure throws with the output's tail. */
export function run(
  cmd: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string; timeoutMs?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      cmd,
      args,
      {
        cwd: options.cwd,
        env: { ...process.env, ...options.env },
        maxBuffer: 64 * 1024 * 1024,
        timeout: options.timeoutMs ?? 15 * 60_000,
      },
      (err, stdout, stderr) => {
        if (err)
          reject(
            new CommandError(
              `${cmd} ${args.join(" ")}: ${err.message.split("\n")[0]}\n${`${stdout}${stderr}`.slice(-1500)}`,
            ),
          );
        else resolve(stdout);
      },
    );
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

export const sql = (socket: string, statements: string) =>
  run("mariadb", ["--socket", socket, "-u", "root", "-e", statements]);

let aptUpdated = false;
/** Installs the Debian packages not yet installed (services are not started by the package: we start them on loopback). */
export async function aptInstall(packages: string[], preseed = ""): Promise<void> {
  const missing: string[] = [];
  for (const p of packages) {
    const status = await run("dpkg-query", ["-W", "-f=${Status}", p]).catch(() => "");
    if (!status.includes("install ok installed")) missing.push(p);
  }
  if (!missing.length) return;
  if (process.getuid?.() !== 0)
    throw new Error(
      `missing Debian packages: ${missing.join(" ")}; install them as root: apt-get install -y ${missing.join(" ")}`,
    );
  if (preseed) await run("debconf-set-selections", [], { input: preseed });
  if (!aptUpdated) {
    say(`  apt-get update`);
    await run("apt-get", ["update", "-qq"]);
    aptUpdated = true;
  }
  say(`  apt-get install ${missing.join(" ")}`);
  // A package's own service must not start on Debian's default address (Apache on *:80): a policy-rc.d that
  // refuses every start, as Docker images ship, for the time of the install (ours is removed after).
  const policy = "/usr/sbin/policy-rc.d";
  const ours = !existsSync(policy);
  if (ours)
    writeFileSync(policy, "#!/bin/sh\n# authsvc bench:real, during an apt-get install\nexit 101\n", { mode: 0o755 });
  try {
    await run("apt-get", ["install", "-y", "-q", "--no-install-recommends", ...missing], {
      env: { DEBIAN_FRONTEND: "noninteractive" },
    });
  } finally {
    if (ours) rmSync(policy, { force: true });
  }
}

/** `npm install` of pinned packages in .data/real-apps/<name> (its own package.json, outside the workspace). */
export async function npmInstall(
  name: string,
  deps: Record<string, string>,
  options: { ignoreScripts?: boolean; rebuild?: string[]; overrides?: Record<string, string> } = {},
): Promise<string> {
  const dir = appDir(name);
  const done = path.join(dir, "node_modules", ".bench-installed");
  const manifest = JSON.stringify(
    {
      name: `bench-real-${name}`,
      private: true,
      dependencies: deps,
      ...(options.overrides ? { overrides: options.overrides } : {}),
    },
    null,
    2,
  );
  if (existsSync(done) && readFileSync(done, "utf8") === manifest) return dir;
  writeFileSync(path.join(dir, "package.json"), manifest);
  say(
    `  npm install ${Object.entries(deps)
      .map(([k, v]) => `${k}@${v}`)
      .join(" ")}`,
  );
  await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--loglevel=error", ...(options.ignoreScripts ? ["--ignore-scripts"] : [])],
    { cwd: dir },
  );
  if (options.rebuild?.length) await run("npm", ["rebuild", ...options.rebuild, "--build-from-source"], { cwd: dir });
  writeFileSync(done, manifest);
  return dir;
}

// ---------------------------------------------------------------------------------------------------------
// Processes

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

export const say = (line: string) => process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------------------
// Page helpers for the baselines and proofs

/** True when a selector matches something on the page. */
export const has = async (page: Page, selector: string) => (await page.$(selector)) !== null;

/** The page's visible text. */
export const textOf = (page: Page) => page.evaluate(() => document.body?.innerText ?? "");

// ---------------------------------------------------------------------------------------------------------
// TOTP, for the baselines: a user's script computes the code as an authenticator app does

const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** Bytes as base32, the form authenticator apps take a secret in (the applications store hex or bytes). */
export function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

/** The current code of a base32 secret, as an authenticator app shows it. */
export const totp = (secret: string) => totpCode(parseTotpSecret(secret), Date.now());

// ---------------------------------------------------------------------------------------------------------
// The usual shapes of a variant and of its baseline

/** A hand-written form login: open the page, type each field, submit (a click, or Enter), wait for the signed-in marker. */
export function formLogin(
  url: string,
  fields: Array<[selector: string, value: string]>,
  submit: string | "Enter",
  signedIn: string,
): (page: Page) => Promise<void> {
  return async (page) => {
    await page.goto(url);
    for (const [selector, value] of fields) await page.type(selector, value);
    await Promise.all([
      page.waitForNavigation(),
      submit === "Enter" ? page.keyboard.press("Enter") : page.click(submit),
    ]);
    await page.waitForSelector(signedIn);
  };
}

/** An application's password login with its wrong-password case: the first variant of most applications. */
export function passwordLogin(
  loginUrl: string,
  cred: LoginVariant["cred"],
  baseline: LoginVariant["baseline"],
  more: Partial<LoginVariant> = {},
): LoginVariant {
  return { label: "password", loginUrl, method: "password", cred, baseline, wrongPassword: true, ...more };
}

/** A login through HTTP Basic authentication: the baseline answers the browser's prompt; its session is the credentials. */
export function basicAuthLogin(
  url: string,
  account: { username: string; password: string },
  signedIn: (page: Page) => Promise<unknown>,
): LoginVariant {
  return passwordLogin(
    url,
    account,
    async (page) => {
      await page.authenticate(account);
      await page.goto(url);
      await signedIn(page);
    },
    { httpCredentials: account },
  );
}

import { mkdirSync } from "node:fs";
import path from "node:path";
import { DATA_DIR } from "../repo-root";

/**
 * Where the real-application bench keeps what it installs and writes, the address and ports its
 * applications use (every one on 127.0.0.1), and its progress lines.
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

/** A progress line of the bench (on stderr: stdout carries its table). */
export const say = (line: string) => process.stderr.write(`${line}\n`);

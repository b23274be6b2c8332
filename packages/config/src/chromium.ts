/**
 * Debian's Chromium for each BROWSER_MODE. The headless shell is its binary, not the package's
 * /usr/bin/chromium-headless-shell: that script runs the binary as a child (no `exec`), so a kill of the
 * process Puppeteer launched (a crash's clean-up, a recycle, a shutdown's deadline) left the browser running,
 * orphaned. /usr/bin/chromium execs its binary.
 */
export const DEFAULT_CHROMIUM = {
  full: "/usr/bin/chromium",
  shell: "/usr/lib/chromium/chromium-headless-shell",
} as const;

/**
 * The Chromium binary to run in `mode`: CHROMIUM_PATH when it is set (it names the binary of the mode in use),
 * else Debian's (DEFAULT_CHROMIUM). The one place the service, its tests and its benches choose the binary.
 */
export function chromiumPath(
  mode: "full" | "shell" = "full",
  env: Record<string, string | undefined> = process.env,
): string {
  return env.CHROMIUM_PATH || DEFAULT_CHROMIUM[mode];
}

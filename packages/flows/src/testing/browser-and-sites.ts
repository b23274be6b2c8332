import { BrowserHost, type BrowserHostOptions, type BrowserMode, chromiumPath, TargetGuard } from "@authsvc/browser";
import { startTestSites, type TestSites } from "@authsvc/test-sites";

/**
 * The deadline an engine test gives each flow it runs: the bound of a flow that is going to fail, not a
 * speed. The engine matrix runs several logins at once beside the rest of the suite, and on a loaded 2-core
 * machine a login took three times as long as on a quiet one (the 30 s once used here was hit).
 */
export const FLOW_DEADLINE_MS = 90_000;

/**
 * The Chromium of the page-logic tests: the headless shell (BROWSER_MODE=shell) unless TEST_BROWSER_MODE=full,
 * as in every test stack (TEST_BROWSER_MODE in @authsvc/devstack, which depends on this package): pages are
 * read and driven through the same Blink and DevTools protocol in both, and the shell costs about 40% less CPU
 * per login. The engine bench runs every case in the mode its stack is given (BROWSER_MODE), and gave the same
 * verdicts in both (docs/performance.md).
 */
export function testBrowserHost(options: Omit<BrowserHostOptions, "executablePath" | "mode">): BrowserHost {
  const mode: BrowserMode = process.env.TEST_BROWSER_MODE === "full" ? "full" : "shell";
  const executablePath = chromiumPath(mode);
  return new BrowserHost({ ...options, executablePath, mode });
}

export interface BrowserAndSites {
  /** The fixture websites, on a loopback port of their own. */
  sites: TestSites;
  /** One headless Chromium for the test file. */
  host: BrowserHost;
  /** The guard a job gets: loopback targets only. */
  guard: TargetGuard;
}

/**
 * For a test file of the engine: starts the fixture sites and Chromium before its tests and closes them
 * after. The fields are set once `beforeAll` ran; read them inside tests.
 */
export function useBrowserAndSites(): BrowserAndSites {
  const env = { guard: new TargetGuard(["loopback"]) } as BrowserAndSites;
  beforeAll(async () => {
    env.sites = await startTestSites();
    env.host = testBrowserHost({ guard: env.guard });
  });
  afterAll(async () => {
    await env.host?.close();
    await env.sites?.close();
  });
  return env;
}

import { BrowserHost, TargetGuard } from "@authsvc/browser";
import { startTestSites, type TestSites } from "@authsvc/test-sites";

/**
 * The deadline an engine test gives each flow it runs: the bound of a flow that is going to fail, not a
 * speed. The engine matrix runs several logins at once beside the rest of the suite, and on a loaded 2-core
 * machine a login took three times as long as on a quiet one (the 30 s once used here was hit).
 */
export const FLOW_DEADLINE_MS = 90_000;

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
    env.host = new BrowserHost({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", guard: env.guard });
  });
  afterAll(async () => {
    await env.host?.close();
    await env.sites?.close();
  });
  return env;
}

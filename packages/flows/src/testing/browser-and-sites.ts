import { BrowserHost, TargetGuard } from "@authsvc/browser";
import { startTestSites, type TestSites } from "@authsvc/test-sites";

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

import path from "node:path";
import { recreateDatabase } from "../reset-database";
import { DATA_DIR } from "../repo-root";
import { startStack, type Stack } from "../stack";
import { testStackEnv } from "../test-env";

declare global {
  var __E2E_STACK__: Stack | undefined;
}

/**
 * Starts the real service once for all end-to-end tests: a fresh database, gateway and worker processes,
 * Chromium and the fixture sites. Tests find it through E2E_* variables; logs go to .data/logs/e2e.
 */
export default async function e2eSetup(): Promise<void> {
  const env = testStackEnv("e2e");
  await recreateDatabase(env.DATABASE_URL!);
  const stack = await startStack({ env, logs: { dir: path.join(DATA_DIR, "logs", "e2e") } });
  globalThis.__E2E_STACK__ = stack;
  Object.assign(process.env, stack.env, {
    E2E_GATEWAY_URL: stack.gatewayUrl,
    E2E_DASHBOARD_URL: stack.dashboardUrl,
    E2E_SITES_URL: stack.sites.url,
    // Fabrikam Boards; its GET /__fixture/oauth-hosts tells the providers' ports, control URLs and users.
    E2E_OAUTH_HOSTS_SITE_URL: stack.oauthHosts?.site ?? "",
    E2E_WORKER_PID: String(stack.processes.worker.pid),
  });
}

import path from "node:path";
import { recreateDatabase } from "../reset-database";
import { DATA_DIR } from "../repo-root";
import { startStack, type Stack } from "../stack";
import { testStackEnv } from "../test-env";

declare global {
  var __E2E_STACK__: Stack | undefined;
}

/**
 * Starts the real service once for the end-to-end tests of this jest process (a shard): a fresh database,
 * gateway and worker processes, Chromium and the fixture sites. Tests find it through E2E_* variables; logs
 * go to .data/logs/e2e<shard>.
 */
export default async function e2eSetup(): Promise<void> {
  // Each shard of the e2e project (scripts/run-tests.sh) has a stack and a database of its own.
  const name = `e2e${(process.env.E2E_SHARD ?? "").replace(/[^0-9]/g, "")}`;
  const env = testStackEnv(name);
  await recreateDatabase(env.DATABASE_URL!);
  const logDir = path.join(DATA_DIR, "logs", name);
  const stack = await startStack({ env, logs: { dir: logDir } });
  globalThis.__E2E_STACK__ = stack;
  Object.assign(process.env, stack.env, {
    E2E_GATEWAY_URL: stack.gatewayUrl,
    E2E_DASHBOARD_URL: stack.dashboardUrl,
    E2E_SITES_URL: stack.sites.url,
    E2E_NAMED_SITES_URL: stack.namedSitesUrl ?? "",
    // Fabrikam Boards; its GET /__fixture/oauth-hosts tells the providers' ports, control URLs and users.
    E2E_OAUTH_HOSTS_SITE_URL: stack.oauthHosts?.site ?? "",
    E2E_WORKER_PID: String(stack.processes.worker.pid),
    // The services' logs, for tests that prove what never reaches them.
    E2E_LOG_DIR: logDir,
  });
}

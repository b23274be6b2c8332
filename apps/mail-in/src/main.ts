import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { shutdownOnSignals, waitForDependencies } from "@authsvc/lifecycle";
import { createLogger } from "@authsvc/logging";
import { createRedis, notifyInbox, redisDependency } from "@authsvc/queue";
import { authenticateMail, mailDnsResolver } from "./authenticate-mail";
import { createMailServer } from "./mail-server";
import { createMailMetrics } from "./mail-metrics";

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger("mail-in", config.logLevel);
  const db = Database.fromConfig(config, 5);
  const redis = createRedis(config.redis, "producer", "mail-in", log);
  await waitForDependencies(log, [redisDependency(redis), db.dependency()]);

  const { registry, messages } = createMailMetrics();

  const resolver = mailDnsResolver({ dnsServers: config.mail.dnsServers });
  const smtp = createMailServer({
    db,
    domain: config.mail.domain,
    maxBytes: config.mail.maxBytes,
    notify: (mailboxId, messageId) => notifyInbox(redis, config.redis.prefix, mailboxId, messageId),
    log,
    onMessage: (outcome) => messages.inc({ outcome }),
    authenticate: (raw) => authenticateMail(raw, resolver, config.mail.arcTrustedSealers),
  });
  await new Promise<void>((resolve) => smtp.listen(config.mail.smtpPort, config.mail.smtpHost, resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  let stopping = false;
  const health = createServer(async (req, res) => {
    if (req.url === "/metrics") {
      res.writeHead(200, { "content-type": registry.contentType });
      res.end(await registry.metrics());
      return;
    }
    let ok: boolean | null = null;
    if (req.url === "/healthz") ok = !stopping;
    if (req.url === "/readyz")
      ok =
        !stopping &&
        (await Promise.all([db.ping(), redis.ping()]).then(
          () => true,
          () => false,
        ));
    res.writeHead(ok === null ? 404 : ok ? 200 : 503, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: Boolean(ok) }));
  });
  await new Promise<void>((resolve) => health.listen(config.mail.healthPort, "0.0.0.0", resolve));
  log.info(
    { smtpPort, domain: config.mail.domain, healthPort: (health.address() as AddressInfo).port },
    "mail-in listening",
  );

  // Ordered: stop taking connections and let open SMTP sessions finish, then Redis and the database.
  shutdownOnSignals({
    log,
    timeoutMs: 30_000,
    onStart: () => {
      stopping = true;
    },
    stages: [
      [{ name: "smtp server", close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) }],
      [{ name: "health server", close: () => health.close() }],
      [
        { name: "redis", close: () => redis.quit() },
        { name: "database", close: () => db.close() },
      ],
    ],
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`mail-in failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

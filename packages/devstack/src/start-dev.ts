import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { DEMO_USER } from "@authsvc/test-sites";
import { loadOrCreateDevEnv } from "./dev-env";
import { DATA_DIR } from "./repo-root";
import { startStack } from "./stack";

const KEY_FILE = path.join(DATA_DIR, "dev-api-key");

/** The development org's key: the one saved on first run while it still works, else a new org and key. */
async function devApiKey(env: Record<string, string>): Promise<{ key: string; created: boolean }> {
  const db = Database.fromConfig(loadConfig(env), 1);
  try {
    if (existsSync(KEY_FILE)) {
      const saved = readFileSync(KEY_FILE, "utf8").trim();
      if (await db.apiKeys.authenticate(saved)) return { key: saved, created: false };
    }
    const org = await db.organizations.create("Development");
    const { key } = await db.apiKeys.create(org.id, "npm start");
    writeFileSync(KEY_FILE, `${key}\n`, { mode: 0o600 });
    return { key, created: true };
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  const env = loadOrCreateDevEnv();
  const sitesPort = Number(process.env.DEMO_SITES_PORT ?? 4000);
  // Fixed local ports for mail-in, so a mail client can be pointed at it (the tests take free ones).
  env.MAIL_SMTP_PORT ??= "2525";
  env.MAIL_HEALTH_PORT ??= "8082";
  env.DASHBOARD_PORT ??= "8083";
  const stack = await startStack({ env, sitesPort, logs: "inherit" });
  const { key, created } = await devApiKey(env);
  const mailDomain = loadConfig(stack.env).mail.domain;
  const body = JSON.stringify({
    domain: `${stack.sites.url}/classic/login`,
    login_method: "password",
    cred: { username: DEMO_USER.username, password: DEMO_USER.password },
  });
  process.stdout.write(`
──────────────────────────────────────────────────────────────────────────────
 authsvc is running
   API        ${stack.gatewayUrl}/v1        (health: ${stack.gatewayUrl}/readyz; reference: ${stack.gatewayUrl}/docs)
   dashboard  ${stack.dashboardUrl}/
   demo site  ${stack.sites.url}/classic/login   (user "${DEMO_USER.username}", password "${DEMO_USER.password}")
   all fixture login pages (iframes, shadow roots, modals, …): ${stack.sites.url}/
${
  stack.oauthHosts
    ? `   OAuth     ${stack.oauthHosts.site}/login (Fabrikam Boards: Google and GitHub fixtures, reached only through the service's browser; details at ${stack.oauthHosts.site}/__fixture/oauth-hosts)
`
    : ""
}   health     worker http://127.0.0.1:${stack.env.WORKER_HEALTH_PORT}/readyz, mail-in http://127.0.0.1:${stack.env.MAIL_HEALTH_PORT}/readyz
   API key    ${key}${created ? "   (new; saved in .data/dev-api-key)" : "   (from .data/dev-api-key)"}

 Log in to the demo site through the service:

   curl -s ${stack.gatewayUrl}/v1/login \\
     -H 'Authorization: Bearer ${key}' \\
     -H 'Content-Type: application/json' \\
     -d '${body}'

 A code by email instead of a password (otp_email): the demo site mails it to a mailbox of ours.
   curl -s ${stack.gatewayUrl}/v1/mailboxes -H 'Authorization: Bearer ${key}' \\
     -H 'Content-Type: application/json' -d '{}'                 # → {"address":"agent-…@${mailDomain}", …}
   curl -s ${stack.sites.url}/__fixture/users -H 'Content-Type: application/json' \\
     -d '{"username":"<address>"}'                               # the demo site's account for it
   curl -s ${stack.gatewayUrl}/v1/login -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' \\
     -d '{"domain":"${stack.sites.url}/cases/email-code/login","login_method":"otp_email","cred":{"email":"<address>"}}'
   (mail-in takes mail for @${mailDomain} on smtp://${stack.smtp.host}:${stack.smtp.port})

 Sign up on a demo site: a new mailbox, the emailed 6-digit code answered, a generated password stored.
   curl -s ${stack.gatewayUrl}/v1/signup -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' \\
     -d '{"domain":"${stack.sites.url}/cases/signup-code/signup","signup_method":"email","allocateMailbox":true}'

 More keys: sign up in the dashboard (${stack.dashboardUrl}/signup), or pnpm cli org create <name>; pnpm cli key create --org <id>.
 Platform staff (the dashboard's Admin area): pnpm cli admin grant <email>.  Stop: Ctrl-C.
──────────────────────────────────────────────────────────────────────────────
`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write("stopping…\n");
    await stack.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
  const { gateway, workers, mailIn, dashboard } = stack.processes;
  for (const child of [gateway, ...workers, mailIn!, dashboard!]) {
    child.on("exit", (code) => {
      if (!stopping) {
        process.stderr.write(`a service process exited (code ${code}); stopping the rest\n`);
        void stack.stop().then(() => process.exit(1));
      }
    });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`npm start failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

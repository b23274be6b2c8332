import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { aptInstall, run } from "./installs";
import { appDir, HOST, MAIL_SMTP_PORT } from "./places";
import { daemon, portOpen, waitHttp } from "./processes";
import { base32, has, totp, type RealApp, passwordLogin } from "./real-app";

const PORT = 8812;
const URL_ = `http://${HOST}:${PORT}`;
const ROOT = "/usr/share/redmine";
/** Debian's Redmine runs one instance per /var/lib/redmine/<name>: ours, its files in .data/real-apps/redmine. */
const INSTANCE = "authsvcbench";
const ACCOUNT = { username: "benchuser", email: "benchuser@example.test", password: "Bench-Redmine-pw-2024" };
const TOTP_ACCOUNT = { username: "benchtotp", email: "benchtotp@example.test", password: "Bench-Redmine-totp-2024" };
const TOTP_SECRET = base32(Buffer.from("bench-redmine-totp-20", "utf8"));

const ENV = { REDMINE_INSTANCE: INSTANCE, RAILS_ENV: "production" };

const ACCOUNTS_SCRIPT = `
def bench_user(login, password, mail, totp = nil)
  u = User.find_by_login(login) || User.new(firstname: "Bench", lastname: login, mail: mail)
  u.login = login
  u.password = password
  u.password_confirmation = password
  u.admin = true
  u.status = User::STATUS_ACTIVE
  u.must_change_passwd = false
  u.language = "en"
  if totp
    u.twofa_scheme = "totp"
    u.twofa_totp_key = totp
  end
  u.save!
end
Setting.default_language = "en"
Setting.twofa = "1"
# Self-registration with account activation by email; the mail's links name this host.
Setting.self_registration = "1"
Setting.host_name = "${HOST}:${PORT}"
Setting.protocol = "http"
Setting.mail_from = "redmine@example.test"
bench_user("${ACCOUNT.username}", "${ACCOUNT.password}", "${ACCOUNT.email}")
bench_user("${TOTP_ACCOUNT.username}", "${TOTP_ACCOUNT.password}", "${TOTP_ACCOUNT.email}", "${TOTP_SECRET}")
`;

async function signIn(
  page: import("puppeteer-core").Page,
  account: { username: string; password: string },
  secret?: string,
): Promise<void> {
  await page.goto(`${URL_}/login`);
  await page.type("#username", account.username);
  await page.type("#password", account.password);
  await Promise.all([page.waitForNavigation(), page.click("#login-submit")]);
  if (secret) {
    // The code on a page of its own (/account/twofa/confirm).
    await page.waitForSelector("#twofa_code");
    await page.type("#twofa_code", totp(secret));
    await Promise.all([page.waitForNavigation(), page.click("#login-submit")]);
  }
  await page.waitForSelector("a.logout");
}

/** Redmine 5.0 (Debian) on SQLite, served by WEBrick. */
export const redmine: RealApp = {
  name: "redmine",
  about: "Redmine 5.0 from Debian (Rails 6.1, SQLite, WEBrick), project tracker; one account with TOTP",
  covers: [
    "server-rendered form with a CSRF token (authenticity_token)",
    "TOTP on a page of its own (/account/twofa/confirm)",
    "sign-up with email verification (an activation link by mail) whose form asks for a username (Login)",
  ],
  async install() {
    await aptInstall(
      ["redmine", "redmine-sqlite", "ruby-webrick"],
      "redmine redmine/instances/default/dbconfig-install boolean false\n",
    );
  },
  async start() {
    const dir = path.join(appDir("redmine"), "instance");
    for (const sub of ["config", "log", "tmp", "files", "db", "public/plugin_assets"])
      mkdirSync(path.join(dir, sub), { recursive: true });
    writeFileSync(
      path.join(dir, "config", "database.yml"),
      `production:\n  adapter: sqlite3\n  database: ${dir}/db/redmine.sqlite3\n  encoding: utf8\n`,
    );
    const secret = path.join(dir, "config", "secret_key.txt");
    if (!existsSync(secret)) writeFileSync(secret, randomBytes(32).toString("hex"));
    // Mail (the activation link of a sign-up) goes to the service's mail-in over SMTP.
    writeFileSync(
      path.join(dir, "config", "configuration.yml"),
      `production:\n  email_delivery:\n    delivery_method: :smtp\n    smtp_settings:\n      address: ${HOST}\n      port: ${MAIL_SMTP_PORT}\n      domain: ${HOST}\n      enable_starttls_auto: false\n`,
    );
    if (!existsSync(`/var/lib/redmine/${INSTANCE}`)) symlinkSync(dir, `/var/lib/redmine/${INSTANCE}`);
    if (await portOpen(PORT)) return;
    await run(`${ROOT}/bin/rake`, ["db:migrate"], { cwd: ROOT, env: ENV });
    await run(`${ROOT}/bin/rails`, ["runner", ACCOUNTS_SCRIPT], { cwd: ROOT, env: ENV });
    // Debian's Redmine has no application server in its bundle: WEBrick, loaded before Bundler.
    const child = daemon(
      "redmine",
      "ruby",
      ["-rwebrick", "-S", "rackup", "-s", "webrick", "-o", HOST, "-p", String(PORT), "config.ru"],
      { cwd: ROOT, env: ENV },
    );
    await waitHttp(`${URL_}/login`, 180_000, child);
  },
  variants: [
    passwordLogin(`${URL_}/login`, ACCOUNT, (page) => signIn(page, ACCOUNT)),
    {
      label: "totp on its own page",
      loginUrl: `${URL_}/login`,
      method: "totp",
      cred: { username: TOTP_ACCOUNT.username, password: TOTP_ACCOUNT.password, totpSecret: TOTP_SECRET },
      baseline: (page) => signIn(page, TOTP_ACCOUNT, TOTP_SECRET),
    },
  ],
  signup: { url: `${URL_}/account/register`, about: "Login field, activation link by email" },
  proof: {
    url: `${URL_}/my/account`,
    signedIn: async (page) => !page.url().includes("/login") && (await has(page, "a.logout")),
  },
};

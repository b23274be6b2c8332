import { writeFileSync } from "node:fs";
import type { Page } from "puppeteer-core";
import { apache, apacheSite, MARIADB, mariadbDatabase, installApache } from "./services";
import { aptInstall } from "./installs";
import { HOST } from "./places";
import { has, type RealApp, passwordLogin } from "./real-app";

const PORT = 8801;
const URL_ = `http://${HOST}:${PORT}`;
const DB_PASSWORD = "bench-wp-db-pw";
const ACCOUNT = { username: "benchadmin", email: "benchadmin@example.test", password: "Bench-WP-pw-2024!" };

/** The hand-written login: waits for the page's own focus move, then types and submits. */
async function signIn(page: Page, login: string): Promise<void> {
  await page.goto(`${URL_}/wp-login.php`);
  // wp-login.php focuses and selects the username field 200 ms after it loads (wp_attempt_focus): keys sent
  // before that land in the wrong field. A script written against the page waits for it.
  await page
    .waitForFunction(() => document.activeElement?.id === "user_login", { timeout: 5000 })
    .catch(() => undefined);
  await page.type("#user_login", login);
  await page.type("#user_pass", ACCOUNT.password);
  await Promise.all([page.waitForNavigation(), page.click("#wp-submit")]);
  await page.waitForSelector("#wpadminbar");
}

/** WordPress 6.1 (Debian's package), on MariaDB. */
export const wordpress: RealApp = {
  name: "wordpress",
  about: "WordPress 6.1 from Debian (Apache + mod_php, MariaDB), the most widely used CMS",
  covers: [
    "login page that shows its form to signed-in visitors",
    "page script that moves the focus / selects the username field after load",
    "email as the login (the same form takes the account's email)",
  ],
  async install() {
    await installApache();
    await aptInstall(["wordpress"]);
  },
  async start() {
    await mariadbDatabase("wordpress", "wordpress", DB_PASSWORD);
    // Debian's wp-config.php reads /etc/wordpress/config-$WORDPRESS_CONFIG.php when the server sets it.
    writeFileSync(
      "/etc/wordpress/config-authsvc-bench.php",
      `<?php
define('DB_NAME', 'wordpress');
define('DB_USER', 'wordpress');
define('DB_PASSWORD', '${DB_PASSWORD}');
define('DB_HOST', '${HOST}:${MARIADB.port}');
define('WP_CONTENT_DIR', '/var/lib/wordpress/wp-content');
define('WP_HOME', '${URL_}');
define('WP_SITEURL', '${URL_}');
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
`,
    );
    apacheSite(
      "wordpress",
      PORT,
      "/usr/share/wordpress",
      "  SetEnv WORDPRESS_CONFIG authsvc-bench\n  Alias /wp-content /var/lib/wordpress/wp-content\n  <Directory /var/lib/wordpress/wp-content>\n    Require all granted\n  </Directory>",
    );
    await apache();
    // The installer's second step makes the site and its administrator; an installed site says so and changes nothing.
    const res = await fetch(`${URL_}/wp-admin/install.php?step=2`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        weblog_title: "Bench blog",
        user_name: ACCOUNT.username,
        admin_password: ACCOUNT.password,
        admin_password2: ACCOUNT.password,
        pw_weak: "1",
        admin_email: ACCOUNT.email,
        blog_public: "0",
        language: "",
      }),
    });
    const body = await res.text();
    if (!/Success!|Already Installed|already installed/i.test(body))
      throw new Error(
        `WordPress install: HTTP ${res.status}: ${body
          .replace(/<[^>]+>/g, " ")
          .replace(/\s+/g, " ")
          .slice(0, 300)}`,
      );
  },
  variants: [
    passwordLogin(`${URL_}/wp-login.php`, { username: ACCOUNT.username, password: ACCOUNT.password }, (page) =>
      signIn(page, ACCOUNT.username),
    ),
    {
      label: "email as login",
      loginUrl: `${URL_}/wp-login.php`,
      method: "password",
      cred: { email: ACCOUNT.email, password: ACCOUNT.password },
      baseline: (page) => signIn(page, ACCOUNT.email),
    },
  ],
  proof: {
    url: `${URL_}/wp-admin/profile.php`,
    signedIn: async (page) => !page.url().includes("wp-login.php") && (await has(page, "#your-profile")),
  },
};

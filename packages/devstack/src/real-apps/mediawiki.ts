import { appendFileSync, copyFileSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { apache, apacheSite, installApache } from "./services";
import { aptInstall, run } from "./installs";
import { appDir, HOST } from "./places";
import { has, type RealApp, formLogin, passwordLogin } from "./real-app";

const PORT = 8805;
const URL_ = `http://${HOST}:${PORT}`;
const ACCOUNT = { username: "BenchAdmin", password: "Bench-MediaWiki-pw-2024" };
const SETTINGS = "/etc/mediawiki/LocalSettings.php";
const LOGIN_URL = `${URL_}/index.php?title=Special:UserLogin`;

/** MediaWiki 1.39 (Debian) on SQLite. */
export const mediawiki: RealApp = {
  name: "mediawiki",
  about: "MediaWiki 1.39 LTS from Debian (Apache + mod_php, SQLite), the wiki behind Wikipedia",
  covers: [
    "server-rendered form with a CSRF token (wpLoginToken) and a session cookie set before the form",
    "login as a special page (Special:UserLogin) of a wiki readable without an account",
    "sign-up whose form asks for a username",
  ],
  async install() {
    await installApache();
    await aptInstall(["mediawiki"]);
  },
  async start() {
    if (!existsSync(SETTINGS)) {
      // The command-line installer: database, administrator and LocalSettings.php (Debian reads it from /etc/mediawiki).
      const dir = appDir("mediawiki");
      const data = path.join(dir, "data");
      mkdirSync(data, { recursive: true });
      await run("php", [
        "/usr/share/mediawiki/maintenance/install.php",
        "--dbtype=sqlite",
        `--dbpath=${data}`,
        "--dbname=benchwiki",
        `--server=${URL_}`,
        "--scriptpath=",
        `--confpath=${dir}`,
        `--pass=${ACCOUNT.password}`,
        "Bench Wiki",
        ACCOUNT.username,
      ]);
      appendFileSync(
        path.join(dir, "LocalSettings.php"),
        "\n# pnpm bench:real\n$wgEnableUploads = false;\n$wgPingback = false;\n",
      );
      await run("chown", ["-R", "www-data:www-data", data]);
      copyFileSync(path.join(dir, "LocalSettings.php"), SETTINGS);
    }
    apacheSite(
      "mediawiki",
      PORT,
      "/var/lib/mediawiki",
      "  <Directory /var/lib/mediawiki/images>\n    php_admin_flag engine off\n  </Directory>",
    );
    await apache();
  },
  variants: [
    passwordLogin(
      LOGIN_URL,
      ACCOUNT,
      formLogin(
        LOGIN_URL,
        [
          ["#wpName1", ACCOUNT.username],
          ["#wpPassword1", ACCOUNT.password],
        ],
        "#wpLoginAttempt",
        "#pt-logout",
      ),
    ),
  ],
  signup: {
    url: `${URL_}/index.php?title=Special:CreateAccount`,
    about: "username form (Special:CreateAccount), no email confirmation",
  },
  proof: {
    url: `${URL_}/index.php?title=Special:Preferences`,
    signedIn: async (page) => (await has(page, "#pt-logout")) && (await has(page, "#mw-prefs-form")),
  },
};

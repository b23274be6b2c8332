import { appendFileSync, readFileSync } from "node:fs";
import { apache, apacheSite, installApache } from "./services";
import { aptInstall, run } from "./installs";
import { HOST } from "./places";
import { has, type RealApp, formLogin, passwordLogin } from "./real-app";

const PORT = 8803;
const URL_ = `http://${HOST}:${PORT}`;
const ACCOUNT = { username: "benchuser", email: "benchuser@example.test", password: "Bench-Doku-pw-2024" };
const USERS = "/var/lib/dokuwiki/acl/users.auth.php";
const LOGIN_URL = `${URL_}/doku.php?id=start&do=login`;

/** DokuWiki (Debian's 2022-07-31 "Igor"), plain-file authentication. */
export const dokuwiki: RealApp = {
  name: "dokuwiki",
  about: "DokuWiki 2022-07-31 from Debian (Apache + mod_php), users in its plain-text user file",
  covers: [
    "server-rendered form with a CSRF token (hidden `sectok`)",
    "login as a page action (`?do=login`) of a wiki readable without an account",
  ],
  async install() {
    await installApache();
    await aptInstall(["dokuwiki"]);
  },
  async start() {
    if (!readFileSync(USERS, "utf8").includes(`\n${ACCOUNT.username}:`)) {
      const hash = (
        await run("php", ["-r", "echo password_hash($argv[1], PASSWORD_BCRYPT);", ACCOUNT.password])
      ).trim();
      appendFileSync(USERS, `\n${ACCOUNT.username}:${hash}:Bench User:${ACCOUNT.email}:user\n`);
    }
    apacheSite(
      "dokuwiki",
      PORT,
      "/usr/share/dokuwiki",
      "  <Directory /usr/share/dokuwiki/bin>\n    Require all denied\n  </Directory>",
    );
    await apache();
  },
  variants: [
    passwordLogin(
      LOGIN_URL,
      { username: ACCOUNT.username, password: ACCOUNT.password },
      formLogin(
        LOGIN_URL,
        [
          ['input[name="u"]', ACCOUNT.username],
          ['input[name="p"]', ACCOUNT.password],
        ],
        '#dw__login button[type="submit"]',
        'a[href*="do=logout"]',
      ),
    ),
  ],
  proof: {
    url: `${URL_}/doku.php?id=start&do=profile`,
    signedIn: async (page) => (await has(page, 'a[href*="do=logout"]')) && !(await has(page, "#dw__login")),
  },
};

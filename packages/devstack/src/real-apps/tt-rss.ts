import { readFileSync, writeFileSync } from "node:fs";
import { apache, apacheSite, installApache } from "./services";
import { aptInstall, run } from "./installs";
import { HOST } from "./places";
import { has, type RealApp, formLogin, passwordLogin } from "./real-app";

const PORT = 8814;
const URL_ = `http://${HOST}:${PORT}`;
const ACCOUNT = { username: "benchuser", password: "Bench-TTRSS-pw-2024" };
const DB = "ttrss_bench";
/** The PostgreSQL the service uses (bootstrap.sh makes it trust user postgres on 127.0.0.1). */
const PSQL = ["-h", HOST, "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-qAt"];

/** Tiny Tiny RSS (Debian's 2021 snapshot) on the machine's PostgreSQL, in a database of its own. */
export const ttRss: RealApp = {
  name: "tt-rss",
  about: "Tiny Tiny RSS (Debian, 2021-02 snapshot; Apache + mod_php, PostgreSQL), a feed reader",
  covers: ["login form of Dojo widgets (dijit TextBox and Button) with a profile select"],
  async install() {
    await installApache();
    await aptInstall(["tt-rss", "php-pgsql"], "tt-rss tt-rss/dbconfig-install boolean false\n");
  },
  async start() {
    const exists =
      (
        await run("psql", [...PSQL, "-d", "postgres", "-c", `SELECT 1 FROM pg_database WHERE datname = '${DB}'`])
      ).trim() === "1";
    if (!exists) {
      await run("psql", [...PSQL, "-d", "postgres", "-c", `CREATE DATABASE ${DB}`]);
      await run("psql", [...PSQL, "-d", DB, "-f", "/usr/share/tt-rss/schema/ttrss_schema_pgsql.sql"]);
    }
    // auth_internal's MODE2 hash: sha256(salt . password).
    await run("psql", [
      ...PSQL,
      "-d",
      DB,
      "-c",
      `
      INSERT INTO ttrss_users (login, pwd_hash, access_level, salt)
        SELECT '${ACCOUNT.username}', '', 10, 'benchsalt' WHERE NOT EXISTS (SELECT 1 FROM ttrss_users WHERE login = '${ACCOUNT.username}');
      UPDATE ttrss_users SET salt = 'benchsalt', pwd_hash = 'MODE2:' || encode(sha256(convert_to('benchsalt' || '${ACCOUNT.password}', 'UTF8')), 'hex')
        WHERE login = '${ACCOUNT.username}';`,
    ]);
    writeFileSync(
      "/etc/tt-rss/database.php",
      `<?php\n// pnpm bench:real\n$dbuser='postgres';\n$dbpass='';\n$basepath='';\n$dbname='${DB}';\n$dbserver='${HOST}';\n$dbport='5432';\n$dbtype='pgsql';\n`,
    );
    const config = readFileSync("/etc/tt-rss/config.php", "utf8")
      .replace(/define\('SELF_URL_PATH', '[^']*'\)/, `define('SELF_URL_PATH', '${URL_}/')`)
      .replace(/define\('CHECK_FOR_UPDATES', true\)/, "define('CHECK_FOR_UPDATES', false)");
    writeFileSync("/etc/tt-rss/config.php", config);
    apacheSite("tt-rss", PORT, "/usr/share/tt-rss/www");
    await apache();
  },
  variants: [
    // Dojo draws the "Log in" button as a span (role=button) and keeps the real submit off screen: Enter sends the form.
    passwordLogin(
      `${URL_}/`,
      ACCOUNT,
      formLogin(
        `${URL_}/`,
        [
          ["#login", ACCOUNT.username],
          ['input[name="password"]', ACCOUNT.password],
        ],
        "Enter",
        "#feeds-holder",
      ),
    ),
  ],
  proof: {
    url: `${URL_}/`,
    signedIn: async (page) => !(await has(page, "#login")) && (await has(page, "#feeds-holder")),
  },
};

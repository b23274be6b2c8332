import { apache, apacheSite, mariadbDatabase, installApache } from "./services";
import { aptInstall } from "./installs";
import { HOST } from "./places";
import { has, type RealApp, formLogin, passwordLogin } from "./real-app";

const PORT = 8802;
const URL_ = `http://${HOST}:${PORT}`;
const ACCOUNT = { username: "benchdba", password: "Bench-DBA-pw-2024" };

/** Adminer 4.8 (Debian), a database admin tool in one PHP file, signed in to the bench's MariaDB. */
export const adminer: RealApp = {
  name: "adminer",
  about: "Adminer 4.8 from Debian (Apache + mod_php), database administration; the account is a MariaDB user",
  covers: [
    "login page that shows its form to any visitor whose URL names no server (signed in or not)",
    "sign-out control that is an <input type=submit value=Logout> in a form",
    "a form with more fields than the login (system, server, database)",
  ],
  async install() {
    await installApache();
    await aptInstall(["adminer"]);
  },
  async start() {
    await mariadbDatabase("benchdata", ACCOUNT.username, ACCOUNT.password);
    // Debian's /etc/adminer/conf.php: Adminer with its plugins (no phoning home).
    apacheSite(
      "adminer",
      PORT,
      "/etc/adminer",
      "  DirectoryIndex conf.php\n  Alias /static /usr/share/adminer/adminer/static\n  <Directory /usr/share/adminer>\n    Require all granted\n  </Directory>",
    );
    await apache();
  },
  variants: [
    passwordLogin(
      `${URL_}/`,
      ACCOUNT,
      formLogin(
        `${URL_}/`,
        [
          ["#username", ACCOUNT.username],
          ['input[name="auth[password]"]', ACCOUNT.password],
        ],
        'input[type="submit"][value="Login"]',
        'input[type="submit"][value="Logout"]',
      ),
    ),
  ],
  proof: {
    // The signed-in page's address: the server (empty: localhost) and the user.
    url: `${URL_}/?username=${ACCOUNT.username}`,
    signedIn: (page) => has(page, 'input[type="submit"][value="Logout"]'),
  },
};

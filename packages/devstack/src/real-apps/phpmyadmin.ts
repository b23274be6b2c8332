import { apache, apacheSite, mariadbDatabase, installApache } from "./services";
import { aptInstall } from "./installs";
import { HOST } from "./places";
import { has, type RealApp, formLogin, passwordLogin } from "./real-app";

const PORT = 8804;
const URL_ = `http://${HOST}:${PORT}`;
const ACCOUNT = { username: "benchpma", password: "Bench-PMA-pw-2024" };

/** phpMyAdmin 5.2 (Debian) with cookie authentication against the bench's MariaDB. */
export const phpmyadmin: RealApp = {
  name: "phpmyadmin",
  about: "phpMyAdmin 5.2 from Debian (Apache + mod_php), cookie authentication; the account is a MariaDB user",
  covers: [
    "server-rendered form with a CSRF token (hidden `token`)",
    "language and server selectors around the login form",
  ],
  async install() {
    await installApache();
    await aptInstall(
      ["phpmyadmin"],
      "phpmyadmin phpmyadmin/dbconfig-install boolean false\nphpmyadmin phpmyadmin/reconfigure-webserver multiselect\n",
    );
  },
  async start() {
    await mariadbDatabase("benchpma", ACCOUNT.username, ACCOUNT.password);
    apacheSite("phpmyadmin", PORT, "/usr/share/phpmyadmin", "  php_admin_value upload_tmp_dir /var/lib/phpmyadmin/tmp");
    await apache();
  },
  variants: [
    passwordLogin(
      `${URL_}/`,
      ACCOUNT,
      formLogin(
        `${URL_}/`,
        [
          ["#input_username", ACCOUNT.username],
          ["#input_password", ACCOUNT.password],
        ],
        "#input_go",
        "#pma_navigation",
      ),
    ),
  ],
  proof: {
    url: `${URL_}/index.php?route=/`,
    signedIn: async (page) => !(await has(page, "#login_form")) && (await has(page, "#pma_navigation")),
  },
};

import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { aptInstall, run, sql } from "./installs";
import { appDir, HOST } from "./places";
import { daemon, onStop, portOpen, waitHttp } from "./processes";

/**
 * What several applications share: one MariaDB and one Apache with PHP, both the bench's own instances
 * (their own data, configuration and ports on 127.0.0.1), never the machine's services.
 */

/** Sockets and run-time files: a folder www-data can reach (PHP connects to MariaDB's socket as www-data). */
const RUN_DIR = "/run/authsvc-real-apps";

export const MARIADB = { port: 8800, socket: path.join(RUN_DIR, "mysqld.sock") };

let mariadbUp: Promise<void> | null = null;

/** The bench's MariaDB on 127.0.0.1:8800, data in .data/real-apps/mariadb. */
export function mariadb(): Promise<void> {
  mariadbUp ??= (async () => {
    await aptInstall(["mariadb-server"]);
    const dir = appDir("mariadb");
    const data = path.join(dir, "data");
    mkdirSync(RUN_DIR, { recursive: true, mode: 0o755 });
    if (!existsSync(path.join(data, "mysql"))) {
      await run("mariadb-install-db", [
        "--no-defaults",
        `--datadir=${data}`,
        "--user=root",
        "--auth-root-authentication-method=socket",
        "--skip-test-db",
      ]);
    }
    if (!(await portOpen(MARIADB.port))) {
      const child = daemon("mariadb", "mariadbd", [
        "--no-defaults",
        `--datadir=${data}`,
        "--user=root",
        `--bind-address=${HOST}`,
        `--port=${MARIADB.port}`,
        `--socket=${MARIADB.socket}`,
        `--pid-file=${path.join(RUN_DIR, "mysqld.pid")}`,
        "--skip-log-bin",
        "--innodb-buffer-pool-size=64M",
      ]);
      const until = Date.now() + 60_000;
      while (!(await portOpen(MARIADB.port))) {
        if (child.exitCode !== null || Date.now() > until)
          throw new Error("MariaDB did not start; see .data/real-apps/logs/mariadb.log");
        await new Promise((r) => setTimeout(r, 300));
      }
    }
  })();
  return mariadbUp;
}

/** A database and a user owning it (idempotent), reachable from PHP over the socket and over TCP. */
export async function mariadbDatabase(db: string, user: string, password: string): Promise<void> {
  await mariadb();
  const grants = ["localhost", HOST]
    .map(
      (h) =>
        `CREATE USER IF NOT EXISTS '${user}'@'${h}' IDENTIFIED BY '${password}'; ALTER USER '${user}'@'${h}' IDENTIFIED BY '${password}'; GRANT ALL ON \`${db}\`.* TO '${user}'@'${h}';`,
    )
    .join(" ");
  await sql(MARIADB.socket, `CREATE DATABASE IF NOT EXISTS \`${db}\`; ${grants} FLUSH PRIVILEGES;`);
}

// ---------------------------------------------------------------------------------------------------------

/** Apache's modules the PHP applications need (mod_php runs under the prefork MPM). */
const MODULES = [
  "mpm_prefork",
  "authz_core",
  "authz_host",
  "authn_core",
  "access_compat",
  "auth_basic",
  "authn_file",
  "authz_user",
  "dir",
  "mime",
  "rewrite",
  "alias",
  "env",
  "setenvif",
  "headers",
  "expires",
  "filter",
  "deflate",
];

const apacheSites = new Map<string, string>();
const answered = new Set<string>();

/** One site of the bench's Apache: `Listen 127.0.0.1:<port>` and a virtual host around `body`. */
export function apacheSite(name: string, port: number, documentRoot: string, body = ""): void {
  apacheSites.set(
    name,
    `Listen ${HOST}:${port}
<VirtualHost ${HOST}:${port}>
  ServerName ${HOST}
  DocumentRoot ${documentRoot}
  <Directory ${documentRoot}>
    Options FollowSymLinks
    AllowOverride All
    Require all granted
  </Directory>
${body}
</VirtualHost>
`,
  );
}

let apacheConfig = "";
const APACHE_PID = path.join(RUN_DIR, "apache", "httpd.pid");

/** `apache2 -k stop` returns at once; the server is gone when its pid file is (a start before that is a no-op). */
async function stopApache(args: string[]): Promise<void> {
  if (!existsSync(APACHE_PID)) return;
  await run("apache2", [...args, "-k", "stop"]).catch(() => "");
  for (let i = 0; i < 100 && existsSync(APACHE_PID); i++) await new Promise((r) => setTimeout(r, 100));
}

/**
 * Apache with PHP and the extensions the PHP applications use. Each of them installs it with itself: an
 * application's start may run PHP's command line first (MediaWiki's installer needs pdo_sqlite), whichever
 * application ran before it.
 */
export async function installApache(): Promise<void> {
  await aptInstall([
    "apache2",
    "libapache2-mod-php",
    "php-mysql",
    "php-sqlite3",
    "php-xml",
    "php-mbstring",
    "php-intl",
    "php-gd",
    "php-curl",
  ]);
}

/** Starts (or reloads, when its sites changed) the bench's Apache with every site declared so far. */
export async function apache(): Promise<void> {
  await installApache();
  const dir = appDir("apache");
  mkdirSync(path.join(RUN_DIR, "apache"), { recursive: true });
  const php = readdirSync("/usr/lib/apache2/modules").find((f) => /^libphp.*\.so$/.test(f));
  if (!php) throw new Error("libapache2-mod-php installed no module in /usr/lib/apache2/modules");
  const conf = path.join(dir, "httpd.conf");
  const text = `# Written by pnpm bench:real; every Listen is on ${HOST}.
ServerRoot /etc/apache2
DefaultRuntimeDir ${RUN_DIR}/apache
PidFile ${RUN_DIR}/apache/httpd.pid
ErrorLog ${dir}/error.log
LogLevel warn
${MODULES.map((m) => `LoadModule ${m}_module /usr/lib/apache2/modules/mod_${m}.so`).join("\n")}
LoadModule php_module /usr/lib/apache2/modules/${php}
User www-data
Group www-data
ServerName ${HOST}
TypesConfig /etc/mime.types
DirectoryIndex index.php index.html
StartServers 2
MinSpareServers 2
MaxSpareServers 6
MaxRequestWorkers 24
LogFormat "%h %l %u %t \\"%r\\" %>s %b" common
CustomLog ${dir}/access.log common
<FilesMatch "\\.php$">
  SetHandler application/x-httpd-php
</FilesMatch>
<Directory />
  AllowOverride None
  Require all denied
</Directory>
# "localhost" in a PHP application means the bench's MariaDB, as it means the machine's on a usual install.
php_admin_value mysqli.default_socket ${MARIADB.socket}
php_admin_value pdo_mysql.default_socket ${MARIADB.socket}
php_admin_value mysqli.default_port ${MARIADB.port}

${[...apacheSites.values()].join("\n")}
`;
  const args = ["-f", conf];
  if (text === apacheConfig && existsSync(APACHE_PID)) return;
  writeFileSync(conf, text);
  await run("apache2", [...args, "-t"]);
  if (!apacheConfig) {
    // A previous run's Apache (the bench was killed) is stopped first: its sites may differ.
    await stopApache(args);
    await run("apache2", [...args, "-k", "start"]);
    onStop("apache", () => stopApache(args));
  } else {
    await run("apache2", [...args, "-k", "graceful"]);
  }
  apacheConfig = text;
  // Each site answers once before its application goes on (a reload for the next site keeps it serving).
  for (const [name, site] of apacheSites) {
    if (answered.has(name)) continue;
    await waitHttp(`http://${HOST}:${/Listen [\d.]+:(\d+)/.exec(site)![1]}/`, 90_000);
    answered.add(name);
  }
}

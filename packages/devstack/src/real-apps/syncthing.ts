import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { aptInstall, run } from "./installs";
import { appDir, HOST } from "./places";
import { daemon, portOpen, waitHttp } from "./processes";
import { textOf, type RealApp, basicAuthLogin } from "./real-app";

const PORT = 8813;
const URL_ = `http://${HOST}:${PORT}`;
const ACCOUNT = { username: "benchuser", password: "Bench-Syncthing-pw-2024" };

/** The options that keep Syncthing on loopback and quiet: no discovery, relays, NAT, reporting or upgrades. */
const OPTIONS: Record<string, string> = {
  listenAddress: `tcp://${HOST}:8899`,
  globalAnnounceEnabled: "false",
  localAnnounceEnabled: "false",
  relaysEnabled: "false",
  natEnabled: "false",
  startBrowser: "false",
  urAccepted: "-1",
  crashReportingEnabled: "false",
  autoUpgradeIntervalH: "0",
};

/** Syncthing 1.19 (Debian): its web GUI asks for HTTP Basic credentials, then keeps a session cookie. */
export const syncthing: RealApp = {
  name: "syncthing",
  about: "Syncthing 1.19 from Debian, its web GUI (AngularJS) with a GUI user and password",
  covers: [
    "HTTP Basic authentication whose success sets a session cookie",
    "single-page application (AngularJS) behind it",
  ],
  async install() {
    await aptInstall(["syncthing"]);
  },
  async start() {
    if (await portOpen(PORT)) return;
    const home = appDir("syncthing");
    const config = path.join(home, "config.xml");
    if (!existsSync(config)) {
      await run("syncthing", [
        "generate",
        `--home=${home}`,
        "--no-default-folder",
        "--skip-port-probing",
        `--gui-user=${ACCOUNT.username}`,
        `--gui-password=${ACCOUNT.password}`,
      ]);
    }
    let xml = readFileSync(config, "utf8").replace(
      /(<gui [^>]*>\s*<address>)[^<]*(<\/address>)/,
      `$1${HOST}:${PORT}$2`,
    );
    for (const [name, value] of Object.entries(OPTIONS))
      xml = xml.replace(new RegExp(`<${name}>[^<]*</${name}>`), `<${name}>${value}</${name}>`);
    writeFileSync(config, xml);
    const child = daemon(
      "syncthing",
      "syncthing",
      ["serve", `--home=${home}`, "--no-browser", "--no-restart", "--no-upgrade", `--gui-address=${HOST}:${PORT}`],
      {
        env: { STNODEFAULTFOLDER: "1", STNOUPGRADE: "1" },
      },
    );
    await waitHttp(`${URL_}/`, 60_000, child);
  },
  variants: [
    basicAuthLogin(`${URL_}/`, ACCOUNT, (page) =>
      page.waitForFunction(() => document.body.innerText.includes("This Device")),
    ),
  ],
  proof: {
    url: `${URL_}/`,
    signedIn: async (page) => {
      await page
        .waitForFunction(() => document.body?.innerText.includes("This Device"), { timeout: 10_000 })
        .catch(() => undefined);
      return (await textOf(page)).includes("This Device");
    },
  },
};

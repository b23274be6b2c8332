import { writeFileSync } from "node:fs";
import path from "node:path";
import { aptInstall } from "./installs";
import { appDir, HOST } from "./places";
import { daemon, portOpen, waitHttp } from "./processes";
import { has, type RealApp, basicAuthLogin } from "./real-app";

const PORT = 8808;
const URL_ = `http://${HOST}:${PORT}`;
const ACCOUNT = { username: "benchuser", password: "Bench-Transmission-pw-2024" };

/** Transmission 3.00's daemon (Debian) with its web interface behind HTTP Basic authentication. */
export const transmission: RealApp = {
  name: "transmission",
  about: "Transmission 3.00 from Debian (transmission-daemon), its web interface behind HTTP Basic authentication",
  covers: [
    "HTTP Basic authentication (a 401 with WWW-Authenticate, the browser's own prompt; no cookie: the session is the Authorization header)",
  ],
  async install() {
    await aptInstall(["transmission-daemon"]);
  },
  async start() {
    if (await portOpen(PORT)) return;
    const dir = appDir("transmission");
    // Every listener on loopback: the RPC/web port and the peer port; no DHT, LPD, PEX, uTP or port mapping.
    writeFileSync(
      path.join(dir, "settings.json"),
      JSON.stringify(
        {
          "rpc-enabled": true,
          "rpc-bind-address": HOST,
          "rpc-port": PORT,
          "rpc-authentication-required": true,
          "rpc-username": ACCOUNT.username,
          "rpc-password": ACCOUNT.password,
          "rpc-whitelist-enabled": true,
          "rpc-whitelist": HOST,
          "rpc-host-whitelist-enabled": false,
          "bind-address-ipv4": HOST,
          "bind-address-ipv6": "::1",
          "peer-port": 8898,
          "peer-port-random-on-start": false,
          "dht-enabled": false,
          "lpd-enabled": false,
          "pex-enabled": false,
          "utp-enabled": false,
          "port-forwarding-enabled": false,
          "download-dir": path.join(dir, "downloads"),
          "incomplete-dir-enabled": false,
        },
        null,
        2,
      ),
    );
    const child = daemon("transmission", "transmission-daemon", ["--foreground", "--config-dir", dir], {
      env: { TRANSMISSION_WEB_HOME: "/usr/share/transmission/web" },
    });
    await waitHttp(`${URL_}/transmission/web/`, 30_000, child);
  },
  variants: [basicAuthLogin(`${URL_}/transmission/web/`, ACCOUNT, (page) => page.waitForSelector("#toolbar"))],
  proof: {
    url: `${URL_}/transmission/web/`,
    signedIn: (page) => has(page, "#toolbar"),
  },
};

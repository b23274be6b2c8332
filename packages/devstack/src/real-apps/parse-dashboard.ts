import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "puppeteer-core";
import { npmInstall } from "./installs";
import { HOST } from "./places";
import { daemon, portOpen, waitHttp } from "./processes";
import { textOf, type RealApp, passwordLogin } from "./real-app";

const PORT = 8816;
const URL_ = `http://${HOST}:${PORT}`;
const VERSION = "9.2.0";
const ACCOUNT = { username: "benchuser", password: "Bench-Parse-pw-2024" };

async function signIn(page: Page, account: { username: string; password: string }): Promise<void> {
  await page.goto(`${URL_}/login`);
  await page.waitForSelector('input[name="username"]');
  await page.type('input[name="username"]', account.username);
  await page.type('input[name="password"]', account.password);
  await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
  await page.waitForFunction(
    () => !location.pathname.endsWith("/login") && document.body.innerText.includes("Bench app"),
  );
}

/** Parse Dashboard (npm), the admin console of Parse Server, with its own users. */
export const parseDashboard: RealApp = {
  name: "parse-dashboard",
  about: `Parse Dashboard ${VERSION} from npm (Express + React), users from its configuration`,
  covers: ["login form drawn by a script (React) with a CSRF token"],
  async install() {
    await npmInstall("parse-dashboard", { "parse-dashboard": VERSION }, { ignoreScripts: true });
  },
  async start() {
    if (await portOpen(PORT)) return;
    const dir = await npmInstall("parse-dashboard", { "parse-dashboard": VERSION }, { ignoreScripts: true });
    const config = path.join(dir, "dashboard.json");
    writeFileSync(
      config,
      JSON.stringify(
        {
          // No Parse Server runs: the dashboard's own sign-in is what is measured.
          apps: [
            {
              serverURL: `http://${HOST}:8817/parse`,
              appId: "bench",
              masterKey: "bench-master-key",
              appName: "Bench app",
            },
          ],
          // Its users can have a TOTP secret (mfa), but 9.2.0's second submit, with the code, fails its own CSRF
          // check ("CSRF token validation failed") in a plain browser too: no TOTP case here.
          users: [{ user: ACCOUNT.username, pass: ACCOUNT.password }],
          useEncryptedPasswords: false,
        },
        null,
        2,
      ),
    );
    const child = daemon(
      "parse-dashboard",
      process.execPath,
      [
        path.join(dir, "node_modules", "parse-dashboard", "bin", "parse-dashboard"),
        "--config",
        config,
        "--host",
        HOST,
        "--port",
        String(PORT),
        "--allowInsecureHTTP",
        "true",
        "--cookieSessionSecret",
        "bench-real-not-a-secret",
      ],
      { cwd: dir },
    );
    await waitHttp(`${URL_}/login`, 60_000, child);
  },
  variants: [passwordLogin(`${URL_}/login`, ACCOUNT, (page) => signIn(page, ACCOUNT))],
  proof: {
    url: `${URL_}/apps`,
    signedIn: async (page) => !page.url().includes("/login") && (await textOf(page)).includes("Bench app"),
  },
};

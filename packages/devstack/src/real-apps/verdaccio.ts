import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { npmInstall } from "./installs";
import { HOST } from "./places";
import { daemon, portOpen, waitHttp } from "./processes";
import { has, type RealApp, passwordLogin } from "./real-app";

const PORT = 8818;
const URL_ = `http://${HOST}:${PORT}`;
const ACCOUNT = { username: "benchuser", password: "Bench-Verdaccio-pw-2024" };
/** 6.10 needs Node 22; 6.8.0 installs with node-fetch held at 2.7.0. */
const VERSION = "6.8.0";
const INSTALL = () =>
  npmInstall("verdaccio", { verdaccio: VERSION }, { ignoreScripts: true, overrides: { "node-fetch": "2.7.0" } });

/** Verdaccio, a private npm registry, with its web UI (React): a login dialog over the registry's home page. */
export const verdaccio: RealApp = {
  name: "verdaccio",
  about: `Verdaccio ${VERSION} from npm, a private npm registry; its web UI with an htpasswd user`,
  covers: [
    "modal login over the app's root (a dialog opened by the header's LOGIN button)",
    "single-page application with a token in localStorage (token, username)",
  ],
  async install() {
    await INSTALL();
  },
  async start() {
    if (await portOpen(PORT)) return;
    const dir = await INSTALL();
    mkdirSync(path.join(dir, "storage"), { recursive: true });
    const sha = createHash("sha1").update(ACCOUNT.password).digest("base64");
    writeFileSync(path.join(dir, "htpasswd"), `${ACCOUNT.username}:{SHA}${sha}:autocreated 2024-01-01T00:00:00.000Z\n`);
    // No uplinks: the bench's registry proxies nothing.
    writeFileSync(
      path.join(dir, "config.yaml"),
      `storage: ./storage
auth:
  htpasswd:
    file: ./htpasswd
    max_users: -1
uplinks: {}
packages:
  '**':
    access: $all
    publish: $authenticated
web:
  title: Bench registry
  login: true
log: { type: stdout, format: pretty, level: warn }
`,
    );
    const child = daemon(
      "verdaccio",
      process.execPath,
      [
        path.join(dir, "node_modules", "verdaccio", "bin", "verdaccio"),
        "--config",
        path.join(dir, "config.yaml"),
        "--listen",
        `${HOST}:${PORT}`,
      ],
      { cwd: dir },
    );
    await waitHttp(`${URL_}/`, 60_000, child);
  },
  variants: [
    passwordLogin(`${URL_}/`, ACCOUNT, async (page) => {
      await page.goto(`${URL_}/`);
      await page.click("[data-testid=header--button-login]");
      await page.waitForSelector("#login--dialog-username", { visible: true });
      await page.type("#login--dialog-username", ACCOUNT.username);
      await page.type("#login--dialog-password", ACCOUNT.password);
      await page.click("#login--dialog-button-submit");
      await page.waitForSelector("[data-testid=logInDialogIcon]");
    }),
  ],
  proof: {
    url: `${URL_}/`,
    signedIn: async (page) => {
      await page
        .waitForSelector("[data-testid=logInDialogIcon], [data-testid=header--button-login]", { timeout: 15_000 })
        .catch(() => undefined);
      return (
        (await has(page, "[data-testid=logInDialogIcon]")) && !(await has(page, "[data-testid=header--button-login]"))
      );
    },
  },
};

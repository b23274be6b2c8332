import { writeFileSync } from "node:fs";
import path from "node:path";
import { npmInstall, run } from "./installs";
import { HOST } from "./places";
import { daemon, portOpen, waitHttp } from "./processes";
import { type RealApp, passwordLogin } from "./real-app";

const PORT = 8811;
const URL_ = `http://${HOST}:${PORT}`;
const ACCOUNT = { username: "benchadmin", password: "Bench-NodeRED-pw-2024" };
/** The last 4.x release: 5.x needs Node 22. */
const VERSION = "4.1.15";

/** Node-RED's editor with `adminAuth`: a login dialog over the editor, a token in localStorage, a WebSocket. */
export const nodeRed: RealApp = {
  name: "node-red",
  about: `Node-RED ${VERSION} from npm, its flow editor with adminAuth (credentials)`,
  covers: [
    "single-page application with its token in localStorage (auth-tokens)",
    "modal login over the app's root (a dialog drawn by the editor's script, no <form> action)",
    "an app that keeps a WebSocket open (the editor's /comms)",
  ],
  async install() {
    await npmInstall("node-red", { "node-red": VERSION });
  },
  async start() {
    if (await portOpen(PORT)) return;
    const dir = await npmInstall("node-red", { "node-red": VERSION });
    const hash = (
      await run(
        process.execPath,
        ["-e", "process.stdout.write(require('bcryptjs').hashSync(process.argv[1], 8))", ACCOUNT.password],
        { cwd: dir },
      )
    ).trim();
    const userDir = path.join(dir, "user");
    writeFileSync(
      path.join(dir, "settings.js"),
      `module.exports = ${JSON.stringify(
        {
          uiHost: HOST,
          uiPort: PORT,
          userDir,
          flowFile: "flows.json",
          credentialSecret: "bench-real-not-a-secret",
          adminAuth: { type: "credentials", users: [{ username: ACCOUNT.username, password: hash, permissions: "*" }] },
          diagnostics: { enabled: false },
          telemetry: { enabled: false },
          editorTheme: { tours: false, projects: { enabled: false }, palette: { catalogues: [] } },
          externalModules: { autoInstall: false, palette: { allowInstall: false } },
        },
        null,
        2,
      )};\n`,
    );
    const child = daemon(
      "node-red",
      process.execPath,
      [
        path.join(dir, "node_modules", "node-red", "red.js"),
        "--settings",
        path.join(dir, "settings.js"),
        "--userDir",
        userDir,
      ],
      { cwd: dir },
    );
    await waitHttp(`${URL_}/`, 60_000, child);
  },
  variants: [
    passwordLogin(`${URL_}/`, ACCOUNT, async (page) => {
      await page.goto(`${URL_}/`);
      await page.waitForSelector("#node-dialog-login-username", { visible: true });
      await page.type("#node-dialog-login-username", ACCOUNT.username);
      await page.type("#node-dialog-login-password", ACCOUNT.password);
      await page.click("#node-dialog-login-submit");
      await page.waitForSelector("#red-ui-header-button-user", { visible: true });
    }),
  ],
  proof: {
    url: `${URL_}/`,
    signedIn: async (page) => {
      const user = await page
        .waitForSelector("#red-ui-header-button-user", { visible: true, timeout: 15_000 })
        .catch(() => null);
      const login = await page.$("#node-dialog-login-username");
      return user !== null && !(await login?.isVisible());
    },
  },
};

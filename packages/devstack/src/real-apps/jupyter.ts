import { aptInstall, run } from "./installs";
import { appDir, HOST } from "./places";
import { daemon, portOpen, waitHttp } from "./processes";
import { has, type RealApp, formLogin, passwordLogin } from "./real-app";

const PORT = 8809;
const URL_ = `http://${HOST}:${PORT}`;
const PASSWORD = "Bench-Jupyter-pw-2024";
const PYTHON = "/usr/bin/python3";
const LOGIN_URL = `${URL_}/login?next=%2Ftree`;

/** The classic Jupyter Notebook 6.4 (Debian), protected by a password only. */
export const jupyter: RealApp = {
  name: "jupyter",
  about: "Jupyter Notebook 6.4 from Debian (python3-notebook), a password and no user name",
  covers: ["password-only page (no identifier field)", "server-rendered form with an XSRF cookie (_xsrf)"],
  async install() {
    await aptInstall(["python3-notebook"]);
  },
  async start() {
    if (await portOpen(PORT)) return;
    const dir = appDir("jupyter");
    const hash = (
      await run(PYTHON, ["-c", "import sys; from notebook.auth import passwd; print(passwd(sys.argv[1]))", PASSWORD])
    ).trim();
    const child = daemon(
      "jupyter",
      PYTHON,
      [
        "-m",
        "notebook",
        `--ip=${HOST}`,
        `--port=${PORT}`,
        "--port-retries=0",
        "--no-browser",
        "--allow-root",
        `--notebook-dir=${dir}`,
        `--NotebookApp.password=${hash}`,
        "--NotebookApp.token=",
      ],
      {
        cwd: dir,
        env: {
          JUPYTER_CONFIG_DIR: `${dir}/.jupyter`,
          JUPYTER_DATA_DIR: `${dir}/.data`,
          JUPYTER_RUNTIME_DIR: `${dir}/.runtime`,
        },
      },
    );
    await waitHttp(`${URL_}/login`, 60_000, child);
  },
  variants: [
    // The API names a user; the page has no field for one.
    passwordLogin(
      LOGIN_URL,
      { username: "bench", password: PASSWORD },
      formLogin(LOGIN_URL, [["#password_input", PASSWORD]], "#login_submit", "#logout"),
      { label: "password only" },
    ),
  ],
  proof: {
    url: `${URL_}/tree`,
    signedIn: async (page) => !page.url().includes("/login") && (await has(page, "#logout")),
  },
};

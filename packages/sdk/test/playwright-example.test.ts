import { execFile } from "node:child_process";
import path from "node:path";
import { closeDatabase, gatewayUrl, newSiteUser, newTenant, sitesUrl } from "@authsvc/devstack";

const ROOT = path.resolve(__dirname, "../../..");

/** Runs examples/playwright-session.ts as a user would, and hands back its exit code and output. */
function runExample(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["-r", "./scripts/swc-register.cjs", "examples/playwright-session.ts"],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", ...env },
        timeout: 90_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

afterAll(() => closeDatabase());

describe("examples/playwright-session.ts", () => {
  it("logs in with the SDK and opens the classic site's account page signed in, in a real Playwright context", async () => {
    const { key } = await newTenant("Example org");
    const user = await newSiteUser("example-password-1");
    const run = await runExample({
      AUTHSVC_BASE_URL: gatewayUrl(),
      AUTHSVC_API_KEY: key,
      LOGIN_URL: `${sitesUrl()}/classic/login`,
      USERNAME: user.username,
      PASSWORD: user.password,
      CHECK_URL: `${sitesUrl()}/classic/account`,
    });
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(run.stdout).toContain(`h1: Welcome, ${user.username}`);
    expect(run.stdout).toContain(`page: ${sitesUrl()}/classic/account (HTTP 200)`);
    expect(run.stdout).not.toContain(user.password);
  });
});

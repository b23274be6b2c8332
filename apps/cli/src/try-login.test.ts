import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runScript } from "@authsvc/devstack";
import { startTestSites, type TestSites } from "@authsvc/test-sites";

let sites: TestSites;
const out = mkdtempSync(path.join(tmpdir(), "try-login-"));

beforeAll(async () => {
  sites = await startTestSites();
  sites.accounts.addUser("try-user@example.test", "try-secret-pass");
});
afterAll(() => sites.close());

/** Runs `pnpm try-login …` as an operator would. */
const tryLogin = (...args: string[]) =>
  runScript("apps/cli/src/try-login.ts", [...args, "--allow", "loopback", "--out", out], {
    ...process.env,
    TRY_PW: "try-secret-pass",
  });

describe("pnpm try-login", () => {
  it("shows the steps, the verdict, the cookies by name and a screenshot, and never the password", async () => {
    const res = await tryLogin(
      `${sites.url}/cases/cookie-banner/login`,
      "--user",
      "try-user@example.test",
      "--password-env",
      "TRY_PW",
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      /accept cookie banner[\s\S]*type identifier[\s\S]*type password[\s\S]*submit[\s\S]*read verdict/,
    );
    expect(res.stdout).toMatch(/verdict: success after \d+ ms \(detected\)/);
    expect(res.stdout).toContain("cookie_banner_sid@127.0.0.1");
    expect(res.stdout).not.toContain("try-secret-pass");
    const shot = /screenshot: (.+\.png)/.exec(res.stdout)![1]!;
    expect(readFileSync(shot).subarray(1, 4).toString()).toBe("PNG");

    // The printed flow replays.
    const flowFile = path.join(out, "flow.json");
    writeFileSync(flowFile, /learned flow \(replay with --learned\): (.+)/.exec(res.stdout)![1]!);
    const again = await tryLogin(
      `${sites.url}/cases/cookie-banner/login`,
      "--user",
      "try-user@example.test",
      "--password-env",
      "TRY_PW",
      "--learned",
      flowFile,
    );
    expect(again.stdout).toMatch(/replay: click consent[\s\S]*verdict: success after \d+ ms \(learned\)/);
  });

  it("exits 1 with the code and the site's words when the login fails", async () => {
    const res = await tryLogin(
      `${sites.url}/cases/german-form/login`,
      "--user",
      "try-user@example.test",
      "--password",
      "falsch",
    );
    expect(res.code).toBe(1);
    expect(res.stdout).toContain("verdict: invalid_credentials after");
    expect(res.stdout).toContain("Benutzername oder Kennwort ist ungültig.");
    expect(res.stdout).toMatch(/screenshot: .+\.png/);
  });

  it("refuses a bad command line with usage and exit 2", async () => {
    const res = await tryLogin("not-a-url", "--user", "x", "--password", "y");
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/usage: pnpm try-login/);
  });
});

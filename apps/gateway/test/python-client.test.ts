import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { closeDatabase, gatewayUrl, newTenant, sitesUrl } from "@authsvc/devstack";

// The Python client (clients/python) runs its own unittest suite against this stack: Debian's python3, as
// on CI machines, else whatever python3 is on PATH. Its live tests must run here, not skip.
const REPO = join(__dirname, "..", "..", "..");
const PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
const LIVE_TESTS = [
  "test_login_runs_one_browser_for_an_idempotent_retry_and_its_session_signs_in_everywhere",
  "test_a_202_is_followed_through_its_events_to_the_session",
  "test_a_wrong_password_raises_invalid_credentials_without_the_password",
  "test_the_resources_and_their_errors",
  "test_signup_with_an_emailed_code_then_refresh_with_a_verified_webhook",
];

function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.on("error", (err) =>
      reject(
        new Error(
          `cannot run ${command} (${err.message}): the Python client's tests need python3 (scripts/bootstrap.sh installs Debian's)`,
        ),
      ),
    );
    child.on("close", (code) => resolve({ code, output }));
  });
}

afterAll(() => closeDatabase());

it("the Python client passes its unit and live tests against the running service", async () => {
  const { key } = await newTenant("Python client org");
  const { code, output } = await run(
    PYTHON,
    ["-m", "unittest", "discover", "-s", "tests", "-t", ".", "-v"],
    join(REPO, "clients", "python"),
    {
      ...process.env,
      AUTHSVC_BASE_URL: gatewayUrl(),
      AUTHSVC_API_KEY: key,
      AUTHSVC_SITES_URL: sitesUrl(),
      AUTHSVC_REQUIRE_LIVE: "1",
      PYTHONDONTWRITEBYTECODE: "1",
      PYTHONUNBUFFERED: "1",
    },
  );
  if (code !== 0 || !/^OK$/m.test(output)) throw new Error(`python3 -m unittest exited ${code}:\n${output}`);
  expect(output).not.toMatch(/skipped/i);
  for (const name of LIVE_TESTS) expect(output).toMatch(new RegExp(`^${name} \\(.*\\) \\.\\.\\. ok$`, "m"));
  expect(Number(/^Ran (\d+) tests? in/m.exec(output)?.[1])).toBeGreaterThanOrEqual(LIVE_TESTS.length + 20);
});

/**
 * Logs in through authsvc and opens a signed-in page in Playwright with the session it returned: the
 * agent's browser never sees the password. Run from the repository root:
 *
 *   AUTHSVC_BASE_URL=http://127.0.0.1:8080 AUTHSVC_API_KEY=pk_… \
 *   LOGIN_URL=https://app.example.com/login USERNAME=ada PASSWORD=… CHECK_URL=https://app.example.com/account \
 *   node -r ./scripts/swc-register.cjs examples/playwright-session.ts
 *
 * Prints what the page shows; exits 2 when the page sent the browser back to a login page, 1 on an error.
 */
import { chromium } from "playwright-core";
import { AuthClient, AuthsvcError, toPlaywrightStorageState } from "@authsvc/sdk";

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (see the comment at the top of examples/playwright-session.ts)`);
  return value;
}

async function main(): Promise<number> {
  const client = new AuthClient({ baseUrl: env("AUTHSVC_BASE_URL"), apiKey: env("AUTHSVC_API_KEY") });
  const checkUrl = new URL(env("CHECK_URL"));

  // A login that outlives the service's wait answers 202; the SDK follows its progress to the session.
  const session = await client.login(
    {
      domain: env("LOGIN_URL"),
      login_method: "password",
      cred: { username: env("USERNAME"), password: env("PASSWORD") },
    },
    { onProgress: (event) => console.log(`authsvc: ${event.type}`) },
  );
  console.log(`authsvc: signed in; ${session.cookies.length} cookie(s) for ${session.origins.join(", ")}`);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run"],
  });
  try {
    const context = await browser.newContext({ storageState: toPlaywrightStorageState(session) });
    const page = await context.newPage();
    const response = await page.goto(checkUrl.toString());
    const landed = new URL(page.url());
    console.log(`page: ${landed.origin}${landed.pathname} (HTTP ${response?.status() ?? "?"})`);
    console.log(`title: ${await page.title()}`);
    const heading = await page
      .locator("h1")
      .first()
      .textContent({ timeout: 5_000 })
      .catch(() => null);
    console.log(`h1: ${heading?.trim() ?? "(none)"}`);
    if (landed.pathname !== checkUrl.pathname || /log ?in|sign ?in/i.test(landed.pathname)) {
      console.log("not signed in: the page sent the browser elsewhere");
      return 2;
    }
    return 0;
  } finally {
    await browser.close();
  }
}

main().then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    // The API's errors carry a stable code to act on; their messages never contain the password.
    console.error(
      err instanceof AuthsvcError
        ? `authsvc refused: ${err.code}: ${err.message}`
        : err instanceof Error
          ? err.message
          : String(err),
    );
    process.exitCode = 1;
  },
);

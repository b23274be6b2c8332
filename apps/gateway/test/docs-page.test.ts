import { chromiumPath } from "@authsvc/config";
import { chromium, type Browser } from "playwright-core";
import { gatewayUrl } from "@authsvc/devstack";

// GET /docs in a real browser: the renderer's bundle loads from the gateway under its CSP, reads
// /openapi.json and shows every operation. Without the bundle nothing renders and this fails.
let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: chromiumPath("full"),
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
});
afterAll(async () => {
  await browser?.close();
});

describe("GET /docs", () => {
  it("renders every operation of /openapi.json from the gateway's own files, without a CSP violation", async () => {
    const description = (await (await fetch(`${gatewayUrl()}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { summary?: string }>>;
    };
    const summaries = Object.values(description.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (op.summary ? [op.summary] : [])),
    );

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const requested: string[] = [];
    page.on("request", (r) => requested.push(r.url()));

    const answer = await page.goto(`${gatewayUrl()}/docs`);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()["content-security-policy"]).toContain("script-src 'self'");
    await page.getByText("Log in to a website and return its session", { exact: true }).waitFor({ timeout: 30_000 });

    const shown = await page.locator(".opblock-summary-description").allTextContents();
    expect(shown.sort()).toEqual([...summaries].sort());
    // Opened, the login shows its examples, syntax-highlighted.
    await page.getByText("Log in to a website and return its session", { exact: true }).click();
    await page
      .locator(".opblock-body")
      .getByText(/example-session-cookie-value/)
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    // No CDN: everything the page loaded came from the gateway (or is inline data).
    expect(requested.filter((url) => !url.startsWith(gatewayUrl()) && !url.startsWith("data:"))).toEqual([]);
    await context.close();
  });

  it("serves only the renderer's files, not the package's directory", async () => {
    const css = await fetch(`${gatewayUrl()}/docs/assets/swagger-ui.css`);
    expect([css.status, css.headers.get("content-type")]).toEqual([200, "text/css; charset=utf-8"]);
    for (const other of ["package.json", "index.html", "..%2Fpackage.json"]) {
      const res = await fetch(`${gatewayUrl()}/docs/assets/${other}`);
      expect([other, res.status]).toEqual([other, 404]);
    }
  });
});

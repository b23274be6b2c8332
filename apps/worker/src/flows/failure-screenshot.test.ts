import { BrowserHost, TargetGuard, type Page } from "@authsvc/browser";
import { loadConfig } from "@authsvc/config";
import { testStackEnv } from "@authsvc/devstack";
import { createLogger, type Logger } from "@authsvc/logging";
import { captureFailurePage } from "./failure-screenshot";

const PASSWORD = "Pw-Screenshot-9QxZ";
const CODE = "481516";

// A login page with secrets everywhere a flow may type them: a password (also in an open shadow root and
// a same-origin frame), a one-time code, and a password shown as text by a "show password" toggle.
const PAGE = `<!doctype html><html><body style="font: 16px sans-serif">
<h1>Sign in</h1><p role="alert">Invalid username or password.</p>
<form><input id="user" name="username" size="30"><br><input id="pw" type="password" size="30"><br>
<input id="shown" type="text" size="30" aria-label="Password (shown)"><br>
<input id="otp" autocomplete="one-time-code" inputmode="numeric" size="10"><br>
<textarea id="notes"></textarea><br><div id="host"></div>
<iframe id="frame" srcdoc="<input id=inner type=password size=30>" style="height:60px"></iframe></form>
<script>document.getElementById("host").attachShadow({ mode: "open" }).innerHTML = '<input id="deep" type="password" size="30">';</script>
</body></html>`;

// Shots that must be taken get a bound no loaded machine reaches (the default is short: a failed job must not
// wait long for its screenshot); the bound itself is tested with a page that hangs.
const SHOT_BOUND_MS = 30_000;

let browser: BrowserHost;
const lines: string[] = [];
let log: Logger;

beforeAll(() => {
  const config = loadConfig(testStackEnv("unit_screenshot"));
  browser = new BrowserHost({ executablePath: config.worker.chromiumPath, guard: new TargetGuard(["loopback"]) });
  log = createLogger("screenshot-test", "warn", { write: (line: string) => void lines.push(line) });
});
afterAll(() => browser.close());

async function loaded(page: Page): Promise<void> {
  await page.setContent(PAGE, { waitUntil: "load" });
}

/** Types the secrets as a flow does (keyboard, not a value assignment). */
async function typeSecrets(page: Page): Promise<void> {
  await page.type("#user", "ada@example.test");
  await page.type("#pw", PASSWORD);
  await page.type("#shown", PASSWORD);
  await page.type("#otp", CODE);
  await page.type("#notes", PASSWORD);
  const deep = await page.evaluateHandle(() => document.getElementById("host")!.shadowRoot!.getElementById("deep")!);
  await (deep as any).type(PASSWORD);
  const inner = await page
    .frames()
    .find((f) => f !== page.mainFrame())!
    .waitForSelector("#inner");
  await inner!.type(PASSWORD);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

async function valuesOf(page: Page) {
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  return {
    ...(await page.evaluate(() => {
      const v = (id: string) => (document.getElementById(id) as HTMLInputElement).value;
      return {
        user: v("user"),
        pw: v("pw"),
        shown: v("shown"),
        otp: v("otp"),
        notes: v("notes"),
        deep: (document.getElementById("host")!.shadowRoot!.getElementById("deep") as HTMLInputElement).value,
      };
    })),
    inner: await frame.$eval("#inner", (el) => (el as HTMLInputElement).value),
  };
}

/** Width and height from a JPEG's start-of-frame segment. */
function jpegSize(image: Buffer): { width: number; height: number } {
  for (let i = 2; i < image.length;) {
    const marker = image[i + 1]!;
    if (marker >= 0xc0 && marker <= 0xc3)
      return { height: image.readUInt16BE(i + 5), width: image.readUInt16BE(i + 7) };
    i += 2 + image.readUInt16BE(i + 2);
  }
  throw new Error("no frame header");
}

describe("captureFailurePage", () => {
  it("blanks every typed secret (shadow root and frame too) before a small viewport JPEG is taken", async () => {
    const shot = await browser.withPage(async (page) => {
      await loaded(page);
      await typeSecrets(page);
      expect((await valuesOf(page)).pw).toBe(PASSWORD);
      const taken = await captureFailurePage(page, { identifier: "ada@example.test", log, timeoutMs: SHOT_BOUND_MS });
      // What the page held when it was shot: only the identifier is left.
      expect(await valuesOf(page)).toEqual({
        user: "ada@example.test",
        pw: "",
        shown: "",
        otp: "",
        notes: "",
        deep: "",
        inner: "",
      });
      return taken;
    });
    expect(shot).not.toBeNull();
    expect(shot!.contentType).toBe("image/jpeg");
    expect(shot!.image.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const size = jpegSize(shot!.image);
    expect(size.width).toBeLessThanOrEqual(1280);
    expect(size.height).toBeLessThanOrEqual(800);
    expect(shot!.image.length).toBeLessThan(300_000);
    expect(shot!.image.includes(PASSWORD)).toBe(false);
  });

  it("shows the same pixels as the page where nothing secret was ever typed", async () => {
    // Rendering is deterministic for the same content: any trace of the typed secrets would differ.
    const typed = await browser.withPage(async (page) => {
      await loaded(page);
      await typeSecrets(page);
      await page.$eval("#user", (el) => ((el as HTMLInputElement).value = ""));
      return captureFailurePage(page, { identifier: "ada@example.test", log, timeoutMs: SHOT_BOUND_MS });
    });
    const untouched = await browser.withPage(async (page) => {
      await loaded(page);
      return captureFailurePage(page, { identifier: "ada@example.test", log, timeoutMs: SHOT_BOUND_MS });
    });
    expect(typed!.image.equals(untouched!.image)).toBe(true);
  });

  it("gives up on a page that does not answer, with a warning that names no secret", async () => {
    lines.length = 0;
    const shot = await browser.withPage(async (page) => {
      await loaded(page);
      await typeSecrets(page);
      void page.evaluate("for (;;) {}").catch(() => undefined); // the page's main thread hangs
      return captureFailurePage(page, { identifier: "ada@example.test", log, timeoutMs: 500 });
    });
    expect(shot).toBeNull();
    expect(lines.join("\n")).toContain("last page not captured");
    expect(lines.join("\n")).not.toContain(PASSWORD);
  });
});

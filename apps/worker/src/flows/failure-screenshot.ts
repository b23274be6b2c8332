import type { Frame, Page } from "@authsvc/browser";
import type { Logger } from "@authsvc/logging";

export interface FailureScreenshot {
  image: Buffer;
  contentType: "image/jpeg";
}

// Small enough to store per failed job, large enough to read a site's error message.
const MAX_WIDTH = 1280;
const MAX_HEIGHT = 800;
const JPEG_QUALITY = 55;
const CAPTURE_TIMEOUT_MS = 2500;

/**
 * The last page of a failed job, as an operator needs it to see why, with no secret in it: every field's
 * value is blanked (passwords, codes, anything the flow typed) but the identifier's, in every frame and
 * open shadow root, and field text is made transparent so a page that refills a field cannot show it
 * either. Viewport only, JPEG. Bounded in time: a hung page gives null (and a warning), never a hang, and
 * a failure to capture never changes the job's verdict.
 */
export async function captureFailurePage(
  page: Page,
  opts: { identifier: string; log: Logger; timeoutMs?: number },
): Promise<FailureScreenshot | null> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">(
    (resolve) => (timer = setTimeout(() => resolve("timeout"), opts.timeoutMs ?? CAPTURE_TIMEOUT_MS)),
  );
  const capture = maskAndShoot(page, opts.identifier);
  capture.catch(() => undefined); // it may still fail after we gave up on it (the context closes under it)
  try {
    const shot = await Promise.race([capture, timedOut]);
    if (shot === "timeout") {
      opts.log.warn(
        { timeoutMs: opts.timeoutMs ?? CAPTURE_TIMEOUT_MS },
        "last page not captured: the page did not answer in time",
      );
      return null;
    }
    return shot;
  } catch (err) {
    // Only the first line: Puppeteer's messages can quote a page's script, never our secrets, but stay short.
    opts.log.warn({ err: err instanceof Error ? err.message.split("\n")[0] : String(err) }, "last page not captured");
    return null;
  } finally {
    clearTimeout(timer);
  }
}

async function maskAndShoot(page: Page, identifier: string): Promise<FailureScreenshot> {
  if (page.isClosed()) throw new Error("the page is closed");
  // A frame that cannot be masked (detached, still loading) must not be shown: give up on the shot.
  await Promise.all(page.frames().map((frame) => maskSecretFields(frame, identifier)));
  const at = await page.evaluate(() => ({ x: window.scrollX, y: window.scrollY }));
  const image = await page.screenshot({
    type: "jpeg",
    quality: JPEG_QUALITY,
    clip: { x: at.x, y: at.y, width: MAX_WIDTH, height: MAX_HEIGHT },
    captureBeyondViewport: false,
  });
  return { image: Buffer.from(image), contentType: "image/jpeg" };
}

/**
 * Blanks every field's value in the frame (and its open shadow roots) except the one holding the
 * identifier, and hides the text of every other field. Returns how many fields it blanked.
 */
export function maskSecretFields(frame: Frame, identifier: string): Promise<number> {
  return frame.evaluate((keep: string) => {
    const KEEP_MARK = "data-authsvc-keep";
    const NOT_TEXT = new Set([
      "hidden",
      "submit",
      "button",
      "reset",
      "image",
      "checkbox",
      "radio",
      "file",
      "range",
      "color",
    ]);
    const STYLE = `input:not([${KEEP_MARK}]), textarea:not([${KEEP_MARK}]) { color: transparent !important; -webkit-text-fill-color: transparent !important; text-shadow: none !important; caret-color: transparent !important; }`;
    let blanked = 0;
    const roots: Array<Document | ShadowRoot> = [document];
    for (let i = 0; i < roots.length; i++) {
      const root = roots[i]!;
      for (const el of Array.from(root.querySelectorAll("*"))) {
        if (el.shadowRoot) roots.push(el.shadowRoot);
        if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) continue;
        if (el instanceof HTMLInputElement && NOT_TEXT.has(el.type)) continue;
        if (keep && el.type !== "password" && el.value.trim() === keep) {
          el.setAttribute(KEEP_MARK, "");
          continue;
        }
        el.removeAttribute(KEEP_MARK);
        if (el.value !== "") blanked++;
        el.value = "";
      }
      const style = document.createElement("style");
      style.textContent = STYLE;
      (root instanceof Document ? (root.head ?? root.documentElement) : root)?.appendChild(style);
    }
    return blanked;
  }, identifier);
}

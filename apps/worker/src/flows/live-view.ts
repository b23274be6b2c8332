import { pageSession, type Page } from "@authsvc/browser";
import type { Logger } from "@authsvc/logging";
import { LIVE_KEYS, type HandoffRelay, type LiveFrame, type LiveInput, type ToPage } from "@authsvc/queue";

// The screencast runs while someone watches: a viewer says so every few seconds; past this it stops.
const VIEWER_GONE_MS = 15_000;
const KEYS = new Set<string>(LIVE_KEYS);
const MASK_EVERY_MS = 1000;

/** Runs in the page: every field holding one of `values` is drawn as dots, whatever its type. */
function maskFilledInPage(values: string[]): void {
  for (const el of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea")) {
    if (el.value !== "" && values.includes(el.value))
      el.style.setProperty("-webkit-text-security", "disc", "important");
  }
}

/**
 * The live view of a job's page while it waits for a person: Chromium's screencast, sent as JPEG frames to
 * whichever replica serves the hosted page, and the person's clicks, wheel, keys and pasted text played on
 * the page. It runs only while a viewer is there. The page stays behind the egress guard like every page
 * of the job. Fields holding what the service typed (the username, the password) are drawn masked while it
 * runs, and stay masked when a "show password" control would reveal them.
 */
export async function startLiveView(
  relay: HandoffRelay,
  jobId: string,
  page: Page,
  log: Logger,
  filled: string[] = [],
  /** Whether the person may act now (a question is open): between questions the flow acts, and their input is dropped. */
  accepts: () => boolean = () => true,
): Promise<{ close(): Promise<void> }> {
  const channels = relay.channels(jobId);
  // The page's own session (its browser profile lives on it: another session would take the page's platform back to the host's).
  const cdp = await pageSession(page);
  let casting = false;
  let lastViewer = 0;
  let closed = false;
  const onFrame = (frame: {
    data: string;
    sessionId: number;
    metadata: { deviceWidth: number; deviceHeight: number };
  }) => {
    void cdp.send("Page.screencastFrameAck", { sessionId: frame.sessionId }).catch(() => undefined);
    const shown: LiveFrame = {
      data: frame.data,
      width: Math.round(frame.metadata.deviceWidth),
      height: Math.round(frame.metadata.deviceHeight),
    };
    void relay.publish(channels.frames, JSON.stringify(shown)).catch(() => undefined);
  };
  cdp.on("Page.screencastFrame", onFrame);
  const startCast = async () => {
    if (casting || closed) return;
    casting = true;
    if (secrets.length > 0) await mask();
    // Closed while the fields were masked: no cast the closed view would never stop.
    if (closed) return;
    await cdp
      .send("Page.startScreencast", { format: "jpeg", quality: 70, maxWidth: 1280, maxHeight: 1024, everyNthFrame: 1 })
      .catch(() => (casting = false));
  };
  const stopCast = async () => {
    if (!casting) return;
    casting = false;
    await cdp.send("Page.stopScreencast").catch(() => undefined);
  };
  const idle = setInterval(() => {
    if (casting && Date.now() - lastViewer > VIEWER_GONE_MS) void stopCast();
  }, 5000);
  idle.unref();
  // Masked before the first frame and again every second: the page may draw the form again.
  const secrets = filled.filter((v) => v.length > 0);
  const mask = () =>
    Promise.all(page.frames().map((f) => f.evaluate(maskFilledInPage, secrets).catch(() => undefined)));
  const masking = setInterval(() => {
    if (casting && secrets.length > 0) void mask();
  }, MASK_EVERY_MS);
  masking.unref();
  // Input is played in the order it came: a word typed is its letters in order.
  let playing = Promise.resolve();
  const play = (event: LiveInput) => {
    playing = playing
      .then(() => playInput(page, event))
      .catch((err: unknown) => log.debug({ jobId, err: String(err) }, "live view input not played"));
  };
  const stop = await relay.listen(channels.toPage, (message) => {
    let parsed: ToPage;
    try {
      parsed = JSON.parse(message) as ToPage;
    } catch {
      return;
    }
    if (parsed.kind === "viewer") {
      lastViewer = Date.now();
      void startCast();
    } else if (parsed.kind === "input" && validInput(parsed.event)) {
      lastViewer = Date.now();
      if (accepts()) play(parsed.event);
    }
  });
  return {
    async close() {
      closed = true;
      clearInterval(idle);
      clearInterval(masking);
      await stop();
      await stopCast();
      cdp.off("Page.screencastFrame", onFrame);
    },
  };
}

function validInput(event: LiveInput): boolean {
  const finite = (n: unknown) => typeof n === "number" && Number.isFinite(n) && Math.abs(n) < 100_000;
  switch (event?.type) {
    case "click":
      return finite(event.x) && finite(event.y);
    case "wheel":
      return finite(event.x) && finite(event.y) && finite(event.dx) && finite(event.dy);
    case "text":
      return typeof event.text === "string" && event.text.length > 0 && event.text.length <= 1000;
    case "key":
      return KEYS.has(event.key);
    default:
      return false;
  }
}

async function playInput(page: Page, event: LiveInput): Promise<void> {
  if (event.type === "click") return page.mouse.click(event.x, event.y);
  if (event.type === "wheel") {
    await page.mouse.move(event.x, event.y);
    return page.mouse.wheel({ deltaX: event.dx, deltaY: event.dy });
  }
  if (event.type === "text") return page.keyboard.type(event.text);
  return page.keyboard.press(event.key === "Space" ? " " : event.key);
}

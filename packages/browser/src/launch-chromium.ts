import { addExtra } from "puppeteer-extra";
import * as puppeteerCore from "puppeteer-core";
import type { Browser } from "puppeteer-core";
import { StealthInOneScript } from "./stealth";

// Headless on a locked-down machine: no sandbox (we run as an unprivileged container user in production,
// isolated by the pod), no GPU, no /dev/shm reliance, and no background calls to Google services.
// Frozen: pass a copy ([...CHROMIUM_ARGS]); Puppeteer takes --disable-features out of the array it is given.
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  // Headless Chromium is the whole browser without a screen: every window (one per browser context, so one
  // per job) loads the omnibox popup's WebUI, a renderer of its own, nobody ever sees. That was most of a
  // job's cost: of 1.1 CPU-seconds to open a context and a page, 0.9 went to that popup (traced; the
  // benchmark prints it). Puppeteer merges this list with its own disabled features.
  // SpareRendererForSitePerProcess: after each navigation Chromium starts a renderer process ahead of time for
  // the next one, for that browser context only. A job's context is closed right after, so nearly every spare
  // was started for nothing: one renderer process of two per job, about 8% of a job's CPU.
  "--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup,PreloadTopChromeWebUI,SpareRendererForSitePerProcess",
]);

const puppeteer = addExtra(puppeteerCore as unknown as Parameters<typeof addExtra>[0]);
// The stealth plugin's evasions, each page getting them as one script (StealthInOneScript).
puppeteer.use(new StealthInOneScript());

/**
 * How Chromium runs headless. `full`: the new headless mode, the whole browser without a screen, so a site
 * sees a real Chrome; each browser context opens a browser window nobody sees, whose views cost the browser
 * process about 0.15 CPU-seconds. `shell`: chromium-headless-shell (Debian's package), the old headless mode,
 * with no windows: about 40% less CPU and memory per login (docs/performance.md), but sites that look for
 * automation tell it apart more easily (the stealth evasions cover the known differences, not all of them).
 */
export type BrowserMode = "full" | "shell";

/**
 * Launches Chromium; with `proxyServer`, every connection it makes goes through that proxy, loopback too.
 * `trustedSpki` (tests and development only) names self-signed certificates Chromium accepts by their key.
 */
export async function launchChromium(
  executablePath: string,
  options: { mode?: BrowserMode; proxyServer?: string; trustedSpki?: readonly string[] } = {},
): Promise<Browser> {
  const { mode = "full", proxyServer, trustedSpki = [] } = options;
  // <-loopback> removes Chromium's implicit bypass of local addresses; WebRTC must not send UDP around the proxy.
  const proxyArgs = proxyServer
    ? [
        `--proxy-server=${proxyServer}`,
        "--proxy-bypass-list=<-loopback>",
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
      ]
    : [];
  return (await puppeteer.launch({
    executablePath,
    headless: mode === "shell" ? "shell" : true,
    // Chromium honours this list only with --user-data-dir, which Puppeteer always passes (a fresh profile).
    args: [
      ...CHROMIUM_ARGS,
      ...proxyArgs,
      ...(trustedSpki.length ? [`--ignore-certificate-errors-spki-list=${trustedSpki.join(",")}`] : []),
    ],
    defaultViewport: { width: 1280, height: 900 },
    // The worker owns shutdown: Chromium must outlive SIGTERM until active jobs finish.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  })) as unknown as Browser;
}

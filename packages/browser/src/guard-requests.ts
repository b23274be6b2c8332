import type { Page } from "puppeteer-core";
import type { TargetGuard, TargetVerdict } from "@authsvc/egress";

/**
 * Checks every request the page makes (navigations, redirects, subresources, XHR) against the guard and
 * aborts the refused ones. Verdicts are cached per origin for the page's lifetime. Calls `onRefused` for a
 * refused main-frame navigation, so the flow can report it instead of a vague network error.
 */
export async function guardRequests(
  page: Page,
  guard: TargetGuard,
  onRefused: (url: string, verdict: Exclude<TargetVerdict, { allowed: true }>) => void,
): Promise<void> {
  const verdicts = new Map<string, Promise<TargetVerdict>>();
  await page.setRequestInterception(true);
  page.on("request", async (request) => {
    if (request.isInterceptResolutionHandled()) return;
    const url = request.url();
    if (url.startsWith("data:") || url.startsWith("blob:") || url === "about:blank") {
      await request.continue().catch(() => undefined);
      return;
    }
    let key: string;
    try {
      key = new URL(url).origin;
    } catch {
      key = url;
    }
    if (!verdicts.has(key)) verdicts.set(key, guard.check(url));
    const verdict = await verdicts.get(key)!;
    if (verdict.allowed) {
      await request.continue().catch(() => undefined);
      return;
    }
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) onRefused(url, verdict);
    await request.abort("blockedbyclient").catch(() => undefined);
  });
}

import type { Page } from "puppeteer-core";
import { registrableDomain, type TargetGuard, type TargetVerdict } from "@authsvc/egress";

// The domains a person driving a page (a hand-off's live view) may take it to, per page, while they drive.
const personScopes = new WeakMap<Page, Set<string>>();

/**
 * While a person drives the page (a hand-off question is open), the main frame goes only where the site
 * and its identity providers are: the registrable domains of `urls` (the login page, where the flow is).
 * A navigation they start elsewhere (a link, an address) is answered 204, so the page stays; the site's own
 * redirects go on, as every request still passes the target guard. `null` lifts it.
 */
export function setPersonScope(page: Page, urls: string[] | null): void {
  if (!urls) {
    personScopes.delete(page);
    return;
  }
  const domains = new Set<string>();
  for (const url of urls) {
    try {
      domains.add(registrableDomain(new URL(url).hostname));
    } catch {
      // about:blank and the like name no site.
    }
  }
  personScopes.set(page, domains);
}

/** Whether a navigation leaves the scope of the person driving the page. */
function outOfScope(page: Page, url: string, redirected: boolean): boolean {
  const scope = personScopes.get(page);
  if (!scope || redirected) return false;
  try {
    return !scope.has(registrableDomain(new URL(url).hostname));
  } catch {
    return true;
  }
}

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
    const mainNavigation = request.isNavigationRequest() && request.frame() === page.mainFrame();
    if (mainNavigation && outOfScope(page, url, request.redirectChain().length > 0)) {
      // A 204 answer commits no navigation: the page stays as it is (an abort would show an error page).
      await request.respond({ status: 204, body: "" }).catch(() => undefined);
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
    if (mainNavigation) onRefused(url, verdict);
    await request.abort("blockedbyclient").catch(() => undefined);
  });
}

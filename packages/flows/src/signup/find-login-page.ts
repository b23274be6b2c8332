import type { Page, TargetGuard } from "@authsvc/browser";
import type { Deadline } from "../deadline";
import { PageWatch } from "../page/page-watch";
import { mergeSignals, scanPage } from "../page/scan-page";
import { watchPage } from "../page/watch-page";

// How long the cookieless visit may take to show its login form.
const VISIT_MS = 8000;

/**
 * Where a new account signs in next time, when no page linked to it by a "Log in" text (invite-only
 * sites, an invitation link that is spent once used): found the way a person would, by visiting the
 * signed-in page without cookies, in a browser context of its own (the same egress guard), where the site
 * sends a stranger: its login page. Null when that page shows no login form (a password field or a
 * username-first step) within a few seconds.
 */
export async function findLoginPage(
  page: Page,
  guard: TargetGuard,
  deadline: Deadline,
  step: (name: string) => void,
): Promise<string | null> {
  const signedInUrl = page.url();
  step("look for the login page: the signed-in page, visited without cookies");
  const context = await page.browser().createBrowserContext();
  try {
    const visitor = await context.newPage();
    const watch = await PageWatch.attach(visitor, guard, signedInUrl);
    await watch.open(signedInUrl, deadline, "signed-in page (without cookies)");
    return await watchPage(visitor, {
      deadline,
      ms: VISIT_MS,
      clock: "beforeLook",
      read: async () => mergeSignals(await scanPage(visitor, "").catch(() => [])),
      decide: (signals) => {
        if (signals.passwordShown || signals.identifierOnlyShown) return { verdict: visitor.url() };
        if (signals.signedIn) return { verdict: null }; // a page anyone sees signed in: it tells nothing
        return "again";
      },
      timeUp: () => null,
    });
  } catch {
    return null;
  } finally {
    await context.close().catch(() => undefined);
  }
}

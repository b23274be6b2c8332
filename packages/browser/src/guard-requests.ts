import type { Page, Protocol } from "puppeteer-core";
import { registrableDomain, type TargetGuard, type TargetVerdict } from "@authsvc/egress";
import { authAnswer } from "./http-auth";
import { pageSession } from "./page-session";

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

type OnRefused = (url: string, verdict: Exclude<TargetVerdict, { allowed: true }>) => void;

// The pages already guarded, with whom to tell of a refusal: a page has one guard (its job's), however many
// watches attach to it.
const guarded = new WeakMap<Page, Promise<Set<OnRefused>>>();

/**
 * Checks the page's main-frame navigations (its first page, links, form posts, redirects, scripts' location
 * changes) against the guard, and blocks the refused ones, calling `onRefused` so the flow can report the
 * refusal instead of a vague network error; while a person drives the page, keeps it in their scope. Only
 * those: every other connection (frames, scripts, images, XHR, WebSockets) is refused by the egress proxy
 * all of Chromium's traffic goes through, which checks the same guard. Pausing each of a page's requests for a
 * round trip to Node cost the browser process and the page's load time for nothing. Verdicts are cached per
 * origin for the page's lifetime. Installed once per page; each call adds whom to tell of a refusal.
 */
export async function guardRequests(page: Page, guard: TargetGuard, onRefused: OnRefused): Promise<void> {
  let told = guarded.get(page);
  if (!told) {
    told = installGuard(page, guard);
    guarded.set(page, told);
  }
  (await told).add(onRefused);
}

async function installGuard(page: Page, guard: TargetGuard): Promise<Set<OnRefused>> {
  const told = new Set<OnRefused>();
  const verdicts = new Map<string, Promise<TargetVerdict>>();
  // The page's own session: Puppeteer's interception would pause every request (and turn the cache off).
  const session = await pageSession(page);
  const mainFrameId = async () => (await session.send("Page.getFrameTree")).frameTree.frame.id;
  let mainFrame = await mainFrameId();
  // Frames the page's tree showed as not its main one: a frame's id never becomes the main frame's, so their
  // documents (ads, analytics, an identity provider's frame) go on without asking the tree again.
  const subframes = new Set<string>();
  session.on("Fetch.requestPaused", async (event: Protocol.Fetch.RequestPausedEvent) => {
    const { requestId, request, frameId } = event;
    const answer = async () => {
      const url = request.url;
      if (url.startsWith("data:") || url.startsWith("blob:") || url === "about:blank")
        return session.send("Fetch.continueRequest", { requestId });
      // Another frame's document, or the main frame's after the page swapped its main frame (a prerendered page
      // it activated): asked again rather than let through.
      if (subframes.has(frameId)) return session.send("Fetch.continueRequest", { requestId });
      if (frameId !== mainFrame) mainFrame = await mainFrameId();
      if (frameId !== mainFrame) {
        subframes.add(frameId);
        return session.send("Fetch.continueRequest", { requestId });
      }
      if (outOfScope(page, url, event.redirectedRequestId !== undefined)) {
        // A 204 answer commits no navigation: the page stays as it is (an abort would show an error page).
        return session.send("Fetch.fulfillRequest", { requestId, responseCode: 204, body: "" });
      }
      let key: string;
      try {
        key = new URL(url).origin;
      } catch {
        key = url;
      }
      if (!verdicts.has(key)) verdicts.set(key, guard.check(url));
      const verdict = await verdicts.get(key)!;
      if (verdict.allowed) return session.send("Fetch.continueRequest", { requestId });
      for (const tell of told) tell(url, verdict);
      return session.send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" });
    };
    // A check that failed (the guard's lookup) blocks the navigation rather than hold it; a page that closed
    // while a request waited has nowhere to send an answer.
    await answer().catch(() =>
      session.send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" }).catch(() => undefined),
    );
  });
  // An HTTP authentication challenge of a document: the credentials the flow gave for its origin, once (answerHttpAuth), else cancelled.
  session.on("Fetch.authRequired", (event: Protocol.Fetch.AuthRequiredEvent) => {
    void session
      .send("Fetch.continueWithAuth", { requestId: event.requestId, authChallengeResponse: authAnswer(page, event) })
      .catch(() => undefined);
  });
  await session.send("Fetch.enable", {
    patterns: [{ urlPattern: "*", resourceType: "Document", requestStage: "Request" }],
    handleAuthRequests: true,
  });
  return told;
}

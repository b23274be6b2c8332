import type { Page } from "@authsvc/browser";
import { settle, type UnsettledMessage } from "../login/verdict/unsettled-message";
import type { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { newSayings, readNotes, sentencesShown } from "../page/page-sayings";
import type { PageWatch } from "../page/page-watch";
import { ACCESS_DENIED, NOT_LINKED, refusalCode, siteFault } from "@authsvc/contracts";
import { mergeSignals, scanPage } from "../page/scan-page";
import {
  baselineOf,
  beyondRotation,
  changesSince,
  type Entries,
  readEntries,
  type SessionBaseline,
  weigh,
} from "../page/session-evidence";
import type { Rotation } from "../page/session-snapshot";
import type { ProviderCookies } from "./provider-cookies";
import { type Next, watchPage } from "../page/watch-page";

// How long the site may take, once the browser is back, to show a signed-in page or its refusal.
const SETTLE_MS = 10_000;

/** The site's own state before the provider's button was pressed: what its answer is compared with. */
export interface SiteSnapshot {
  /** The site's cookies (the provider's set aside) and storage, and which of them rotate on their own. */
  baseline: SessionBaseline;
  /**
   * Cookies (`name=value`) the site set on the way to the provider (the state of its authorization
   * request), filled in as they are seen: no sign of a session when the browser comes back.
   */
  outbound: Set<string>;
  messages: string[];
  sentences: string[];
}

/** The site's cookies and storage now: every cookie of the browser but the provider's (they change whatever the site says). */
async function siteEntries(
  page: Page,
  providerCookies: ProviderCookies,
  storage: Array<[string, string]>,
): Promise<Entries> {
  return readEntries(page.browserContext(), page, storage, { exclude: (c) => providerCookies.owns(c) });
}

export async function snapshotSite(
  page: Page,
  providerCookies: ProviderCookies,
  rotation: Rotation,
): Promise<SiteSnapshot> {
  const [scans, notes] = await Promise.all([scanPage(page, ""), readNotes(page)]);
  const signals = mergeSignals(scans);
  const entries = await siteEntries(page, providerCookies, signals.storageEntries);
  return {
    baseline: baselineOf(entries, rotation.earlier, rotation.reissued),
    outbound: new Set(),
    messages: signals.messages,
    sentences: sentencesShown(notes),
  };
}

/**
 * Waits, once the provider sent the browser back, until the site shows it signed the account in: no
 * login form, every frame read, no HTTP error, and cookies or storage of its own it did not hold before,
 * on two polls in a row. A site that shows the login page again with its words refuses the account
 * (`account_not_linked`), or says the authorization was cancelled (`consent_denied`).
 */
export async function awaitSiteSignedIn(
  page: Page,
  watch: PageWatch,
  before: SiteSnapshot,
  providerCookies: ProviderCookies,
  providerName: string,
  /** Whether the page still offers to log in (its "Log in" link, the provider's button): then it has not signed the account in. */
  offersSignIn: () => Promise<boolean>,
  deadline: Deadline,
  /** What a refusal on the site means: it knows no account for the provider's (a login), or it refused what its signup form was given. */
  refusal: "account_not_linked" | "signup_rejected" = "account_not_linked",
): Promise<void> {
  const seen = new Set(before.messages);
  const seenSentences = new Set(before.sentences);
  let successBefore = false;
  let unsettled: UnsettledMessage | null = null;
  let lastPasswordShown: boolean;
  const refuse = (message: string) => {
    const code = ACCESS_DENIED.test(message) ? "consent_denied" : siteFault(message) ? "login_unconfirmed" : refusal;
    return new LoginFlowError(
      code,
      code === "account_not_linked"
        ? `signed in at ${providerName}, but the site refused the account: ${message}`
        : message,
      { retryable: false },
    );
  };
  await watchPage(page, {
    deadline,
    ms: SETTLE_MS,
    check: () => watch.check(),
    read: () =>
      Promise.all([
        scanPage(page, "").catch(() => Object.assign([], { unreadable: 1 })),
        readNotes(page).catch(() => []),
      ]),
    decide: async ([scans, notes]): Promise<Next<void>> => {
      const signals = mergeSignals(scans);
      lastPasswordShown = signals.passwordShown;
      const fresh = [...signals.messages.filter((m) => !seen.has(m)), ...watch.dialogs];
      const sayings = newSayings(notes, seenSentences).map((s) => s.block);
      const said = [...fresh, ...sayings];
      // Words that refuse the account, on any page of the site, are its verdict.
      const verdict =
        said.find((m) => NOT_LINKED.test(m) || ACCESS_DENIED.test(m)) ?? said.find((m) => refusalCode(m) !== null);
      if (verdict) throw refuse(verdict);
      const formShown = signals.passwordShown || signals.identifierOnlyShown;
      if (formShown && fresh.length > 0) {
        // The login page again with a message: the site's answer to the provider's account, once it settled.
        const waited = settle(unsettled, fresh[0]!, Date.now());
        unsettled = waited.unsettled;
        if (waited.settled) throw refuse(fresh[0]!);
      }
      let success = false;
      if (
        !formShown &&
        scans.length > 0 &&
        scans.unreadable === 0 &&
        watch.documentStatus < 400 &&
        !signals.otpPrompt
      ) {
        const now = await siteEntries(page, providerCookies, signals.storageEntries).catch(() => null);
        // What the site set on the way out (its authorization request's state) is no session either.
        for (const [key, value] of now ?? [])
          if (key.startsWith("cookie ") && before.outbound.has(`${key.slice(key.lastIndexOf("|") + 1)}=${value}`))
            now!.delete(key);
        const changes = now ? changesSince(before.baseline, now) : null;
        const evidence = changes ? weigh(changes, { account: !!signals.signedIn, movedAway: false }) : "none";
        // The provider vouched for the account: state of the site's own beyond what rotates, on a page that shows
        // the account or at least no longer offers to log in ("Log in", "Continue with …").
        success =
          evidence === "strong" ||
          (evidence === "weak" && beyondRotation(changes!) && !(await offersSignIn().catch(() => true)));
      }
      if (success && (successBefore || signals.signedIn)) return { verdict: undefined };
      successBefore = success;
      return success ? "confirm" : "wait";
    },
    timeUp: () => {
      if (watch.documentStatus >= 500)
        throw new LoginFlowError(
          "target_unreachable",
          `the site answered the return from ${providerName} with HTTP ${watch.documentStatus}`,
          { retryable: false },
        );
      throw new LoginFlowError(
        "login_unconfirmed",
        lastPasswordShown
          ? `back from ${providerName}, the site shows its login form again, without a message`
          : `back from ${providerName}, the site set no session of its own`,
        { retryable: false },
      );
    },
  });
}

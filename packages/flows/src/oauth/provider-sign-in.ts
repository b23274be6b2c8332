import type { Page } from "@authsvc/browser";
import { settle, type UnsettledMessage } from "../login/verdict/unsettled-message";
import type { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { LoginRun } from "../login/login-run";
import type { FlowOptions, PasswordLoginInput } from "../login/password-login";
import { secondFactors } from "../login/second-factors";
import { newSayings, readNotes, refusalSaid, sentencesShown } from "../page/page-sayings";
import type { PageWatch } from "../page/page-watch";
import { ACCESS_DENIED, BROWSER_REFUSED, refusalCode } from "@authsvc/contracts";
import { mergeSignals, readFrames, scanPage } from "../page/scan-page";
import type { SelectorPath } from "../page/in-page/kit";
import { performStep } from "../page/steps";
import type { ProviderModule } from "./provider-modules";
import { readProviderChoicesInPage } from "./read-oauth-page";
import { type Next, watchPage } from "../page/watch-page";

// How long a provider's page may show nothing we can act on (no form, no question, no way back) before the flow gives up.
const IDLE_MS = 12_000;
const MAX_APPROVALS = 3;

/** Where the provider's pages are now, and whether the browser is back on the site. */
export interface ProviderWindow {
  /** The provider's page: the popup while it is open, else the site's own tab. */
  page(): Page;
  watch(): PageWatch;
  /** The browser is back on the site: the tab is on the site's host again, or the popup closed. */
  returned(): boolean;
  /** The provider's page is on a host that may get the account's password. */
  onProvider(): boolean;
}

export interface ProviderSignInResult {
  /** Whether the password was typed: false when the provider's kept session signed the account in. */
  passwordSent: boolean;
}

/**
 * Signs the provider account in on the provider's pages until the browser is back on the site: the
 * account chooser, the sign-in form (its module's steps, else the detection engine), its second factor,
 * and the consent or "Authorize" question. The password goes out once at most: a form shown again after
 * it is the provider's verdict, never a second attempt.
 */
export async function signInAtProvider(
  window: ProviderWindow,
  module: ProviderModule,
  account: PasswordLoginInput,
  options: FlowOptions,
  deadline: Deadline,
): Promise<ProviderSignInResult> {
  const step = options.onStep ?? (() => undefined);
  let run: LoginRun | null = null;
  let seenMessages = new Set<string>();
  let seenSentences = new Set<string>();
  let lastAction = Date.now();
  let approvals = 0;
  let chooserClicks = 0;
  let otpAnswered = false;
  let linkOpened = false;
  let unsettled: UnsettledMessage | null = null;
  const values = { identifier: account.identifier, password: "", additionalFields: {} };
  const fail = (code: ConstructorParameters<typeof LoginFlowError>[0], message: string) =>
    new LoginFlowError(code, message, { retryable: false });
  // A click on one of the provider's own choices (grant access, an account), then a look at once.
  const clickChoice = async (page: Page, path: SelectorPath, what: string) => {
    step(`${what} on ${module.name}`);
    await performStep(page, { action: "click", purpose: "next", frame: "main", path }, values).catch(() => false);
    lastAction = Date.now();
    return "again" as const;
  };

  return watchPage(() => window.page(), {
    deadline,
    clock: "beforeLook",
    done: () => (window.returned() ? { verdict: { passwordSent: run?.submitStep != null } } : null),
    check: () => window.watch().check(),
    read: async (page) => {
      const watch = window.watch();
      const [scans, notes, choices] = await Promise.all([
        scanPage(page, account.identifier).catch(() => Object.assign([], { unreadable: 1 })),
        readNotes(page).catch(() => []),
        readFrames(page, readProviderChoicesInPage, account.identifier).then(
          (frames) => frames[0]?.reading ?? null,
          () => null,
        ),
      ]);
      return { page, watch, scans, notes, choices };
    },
    decide: async ({ page, watch, scans, notes, choices }): Promise<Next<ProviderSignInResult>> => {
      if (scans.length === 0 || !choices) return "wait";
      const signals = mergeSignals(scans);
      const fresh = [...signals.messages.filter((m) => !seenMessages.has(m)), ...watch.dialogs];
      const sayings = newSayings(notes, seenSentences);
      const said = [...fresh, ...sayings.map((s) => s.block)];
      const wall =
        said.find((m) => BROWSER_REFUSED.test(m)) ??
        (BROWSER_REFUSED.test(choices.text) ? choices.text.slice(0, 200) : null);
      if (wall && !signals.passwordShown)
        throw fail("provider_blocked", `${module.name} refused to sign in from this browser: ${wall}`);
      const denied = said.find((m) => ACCESS_DENIED.test(m));
      if (denied) throw fail("consent_denied", `${module.name} did not grant the site access: ${denied}`);
      const formShown = signals.passwordShown || signals.identifierOnlyShown;

      if (formShown && !run) {
        if (!window.onProvider())
          throw fail(
            "form_not_found",
            `the ${module.name} button led to ${new URL(page.url()).host}, which is not ${module.name}'s sign-in page`,
          );
        run = new LoginRun(page, account, options, deadline, () => watch.resetVerdict());
        try {
          const replayed = module.steps && run.fits(module.steps) ? await run.replay(module.steps) : false;
          if (!replayed) {
            if (module.steps) step(`${module.name}'s page differs from its known steps; detecting the form`);
            await run.detectAndSubmit();
          }
        } catch (err) {
          // A wall in place of the next sign-in step (after the identifier) is the provider refusing the browser.
          const shown = await page.evaluate(() => document.body?.innerText ?? "").catch(() => "");
          const wall = BROWSER_REFUSED.exec(shown);
          if (err instanceof LoginFlowError && wall)
            throw fail("provider_blocked", `${module.name} refused to sign in from this browser: ${wall[0]}`);
          throw err;
        }
        seenMessages = new Set(run.before?.messages ?? []);
        seenSentences = new Set(run.before?.sentences ?? []);
        lastAction = Date.now();
        return "again";
      }
      if (formShown && run) {
        // The form again after the password went out: the provider's answer is on it.
        const refusals = fresh.map((m) => ({ m, code: refusalCode(m) })).filter((r) => r.code !== null);
        const sayingRefusal = refusalSaid(sayings, "invalid_credentials");
        const refusal = refusals[0] ?? (sayingRefusal ? { m: sayingRefusal.message, code: sayingRefusal.code } : null);
        if (refusal) {
          const code =
            refusal.code === "account_locked" || refusal.code === "captcha_blocked"
              ? refusal.code
              : otpAnswered
                ? "verification_failed"
                : "invalid_credentials";
          throw fail(code, `${module.name}: ${refusal.m}`);
        }
        if (fresh.length > 0) {
          const waited = settle(unsettled, fresh[0]!, Date.now());
          unsettled = waited.unsettled;
          if (waited.settled) throw fail("invalid_credentials", `${module.name}: ${fresh[0]}`);
        }
      } else if (signals.otpPrompt && !signals.passwordShown) {
        const prompt = scans.find((s) => s.reading.otp.length > 0);
        if (otpAnswered && (fresh.length > 0 || refusalSaid(sayings, "verification_failed"))) {
          throw fail(
            "verification_failed",
            `${module.name} refused the one-time code: ${fresh[0] ?? refusalSaid(sayings, "verification_failed")!.message}`,
          );
        }
        if (!otpAnswered) {
          const factors = secondFactors(
            page,
            watch,
            { ...account, loginUrl: page.url() },
            () => run?.since ?? null,
            deadline,
            step,
          );
          if (!prompt || !factors.answerOtp)
            throw fail("mfa_required", `${module.name} asked for a one-time code the request gave no way to answer`);
          otpAnswered = true;
          markSeen(signals.messages, notes);
          await factors.answerOtp(prompt);
          lastAction = Date.now();
          return "again";
        }
      } else if (signals.confirmByEmail && !linkOpened) {
        const factors = secondFactors(
          page,
          watch,
          { ...account, loginUrl: page.url() },
          () => run?.since ?? null,
          deadline,
          step,
        );
        if (!factors.answerLink) throw fail("mfa_required", `${module.name} asked to confirm the sign-in by email`);
        linkOpened = true;
        markSeen(signals.messages, notes);
        await factors.answerLink();
        lastAction = Date.now();
        return "again";
      } else if (choices.approve && window.onProvider()) {
        if (approvals >= MAX_APPROVALS)
          throw fail("login_unconfirmed", `${module.name} kept asking to grant the site access`);
        approvals++;
        markSeen(signals.messages, notes);
        return clickChoice(page, choices.approve, "allow the site");
      } else if (choices.account && chooserClicks < 2) {
        chooserClicks++;
        return clickChoice(page, choices.account, "choose the account");
      } else if (choices.anotherAccount && chooserClicks < 2) {
        chooserClicks++;
        return clickChoice(page, choices.anotherAccount, "use another account");
      }
      if (Date.now() - lastAction > IDLE_MS) {
        const where = run ? "after the password" : "before any sign-in form";
        throw fail(
          run ? "login_unconfirmed" : "form_not_found",
          `${module.name}'s page showed nothing to answer ${where} and did not return to the site`,
        );
      }
      return "wait";
    },
    timeUp: () => {
      throw deadline.expired(`signing in at ${module.name}`);
    },
  });

  function markSeen(messages: string[], notes: Awaited<ReturnType<typeof readNotes>>): void {
    for (const m of messages) seenMessages.add(m);
    for (const s of sentencesShown(notes)) seenSentences.add(s);
  }
}
